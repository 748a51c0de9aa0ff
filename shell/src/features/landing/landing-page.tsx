import { constants } from '@pagecast/contracts';
import { LanguageSwitcher, useTranslation } from '@pagecast/i18n';
import {
  Badge,
  buttonClass,
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
  IconCheck,
  IconFullscreen,
  IconMinus,
  IconTag,
  IconUpload,
} from '@pagecast/ui';
import { Link } from '@pagecast/router';
import { Brand } from '../../components/brand';

const features = [
  { key: 'upload', Icon: IconUpload },
  { key: 'fullscreen', Icon: IconFullscreen },
  { key: 'sales', Icon: IconTag },
] as const;

function usePlans() {
  const { t, i18n } = useTranslation();
  const n = (value: number) => value.toLocaleString(i18n.language);
  return [
    {
      id: 'free',
      price: t('landing.pricing.freePrice'),
      features: [
        { text: t('landing.pricing.fileLimit', { limit: constants.fileLimits.free }) },
        { text: t('landing.pricing.signage') },
        { text: t('landing.pricing.noPurchase'), no: true },
      ],
    },
    {
      id: 'standard',
      featured: true,
      price: t('landing.pricing.perMonth', { points: n(constants.monthlyPlanPrices.standard) }),
      features: [
        { text: t('landing.pricing.fileLimit', { limit: constants.fileLimits.standard }) },
        { text: t('landing.pricing.signage') },
        { text: t('landing.pricing.buyAndSell') },
      ],
    },
    {
      id: 'creator',
      price: t('landing.pricing.perMonth', { points: n(constants.monthlyPlanPrices.creator) }),
      features: [
        { text: t('landing.pricing.fileLimit', { limit: constants.fileLimits.creator }) },
        { text: t('landing.pricing.signage') },
        { text: t('landing.pricing.buyAndSell') },
        { text: t('landing.pricing.prioritySupport') },
      ],
    },
  ];
}

/** Landing page for visitors (spec point 2): hero, three features, pricing, closing call to action. */
/** The three plans as advertised (spec point 1): price, files, what each may do. */
function Pricing() {
  const { t } = useTranslation();
  const plans = usePlans();
  return (
    <section className="pc-section" aria-labelledby="pricing-title">
      <div className="pc-container">
        <h2 className="pc-section__title" id="pricing-title">
          {t('landing.pricing.title')}
        </h2>
        <p className="pc-section__subtitle">{t('landing.pricing.subtitle')}</p>
        <div className="pc-plans">
          {plans.map((plan) => (
            <Card
              key={plan.id}
              className={`pc-plan${plan.featured ? ' pc-plan--featured' : ''}`}
              data-testid={`plan-${plan.id}`}
            >
              {plan.featured ? <Badge className="pc-plan__ribbon">{t('landing.pricing.popular')}</Badge> : null}
              <CardHeader>
                <CardTitle>{t(`landing.pricing.plans.${plan.id}`)}</CardTitle>
                <p className="pc-plan__price">{plan.price}</p>
              </CardHeader>
              <CardContent>
                <ul className="pc-plan__features">
                  {plan.features.map((f) => {
                    const no = 'no' in f && f.no;
                    return (
                      <li key={f.text} className={no ? 'pc-plan__no' : undefined}>
                        {no ? <IconMinus /> : <IconCheck />}
                        {f.text}
                      </li>
                    );
                  })}
                </ul>
              </CardContent>
              <CardFooter>
                <Link
                  to="/register"
                  className={buttonClass(plan.featured ? 'primary' : 'outline', 'md')}
                  style={{ width: '100%' }}
                >
                  {t('landing.pricing.choose')}
                </Link>
              </CardFooter>
            </Card>
          ))}
        </div>
      </div>
    </section>
  );
}

export function LandingPage() {
  const { t } = useTranslation();
  return (
    <div data-testid="landing-page">
      <section className="pc-hero">
        <div className="pc-container">
          <div className="pc-landing-header">
            <Brand />
            <div className="pc-row">
              <LanguageSwitcher />
              <Link to="/login" className={buttonClass('ghost', 'sm')}>
                {t('nav.login')}
              </Link>
              <Link to="/register" className={buttonClass('primary', 'sm')}>
                {t('nav.register')}
              </Link>
            </div>
          </div>
          <div style={{ paddingTop: 40 }}>
            <span className="pc-hero__badge">{t('landing.hero.badge')}</span>
            <h1 className="pc-hero__title">{t('landing.hero.title')}</h1>
            <p className="pc-hero__subtitle">{t('landing.hero.subtitle')}</p>
            <div className="pc-row">
              <Link to="/register" className={buttonClass('primary', 'lg')} data-testid="hero-start">
                {t('landing.hero.startNow')}
              </Link>
              <Link to="/login" className={buttonClass('outline', 'lg')} data-testid="hero-login">
                {t('landing.hero.login')}
              </Link>
            </div>
          </div>
        </div>
      </section>

      <section className="pc-section pc-section--muted" aria-labelledby="features-title">
        <div className="pc-container">
          <h2 className="pc-section__title" id="features-title" style={{ marginBottom: 32 }}>
            {t('landing.features.title')}
          </h2>
          <div className="pc-grid">
            {features.map((f) => (
              <Card key={f.key}>
                <CardHeader>
                  <span className="pc-feature__icon">
                    <f.Icon />
                  </span>
                  <CardTitle>{t(`landing.features.${f.key}.title`)}</CardTitle>
                </CardHeader>
                <CardContent>
                  <CardDescription>{t(`landing.features.${f.key}.description`)}</CardDescription>
                </CardContent>
              </Card>
            ))}
          </div>
        </div>
      </section>

      <Pricing />

      <section className="pc-section" style={{ paddingTop: 0 }}>
        <div className="pc-container">
          <div className="pc-cta">
            <h2>{t('landing.cta.title')}</h2>
            <p>{t('landing.cta.description')}</p>
            <div className="pc-row" style={{ justifyContent: 'center', marginTop: 20 }}>
              <Link to="/register" className={buttonClass('secondary', 'lg')}>
                {t('landing.cta.startFree')}
              </Link>
              <Link to="/login" className={buttonClass('outline', 'lg')}>
                {t('landing.cta.login')}
              </Link>
            </div>
          </div>
        </div>
      </section>

      <footer className="pc-footer">{t('landing.footer')}</footer>
    </div>
  );
}

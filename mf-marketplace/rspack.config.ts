import { remoteConfigs } from '@pagecast/federation';

export default remoteConfigs({
  name: 'mf_marketplace',
  dir: import.meta.dirname,
  port: 3002,
  title: 'Pagecast marketplace (standalone)',
  exposes: { './routes': './src/routes/index.ts' },
});

// What mf_marketplace exposes to the shell ('./routes'): its route components by name.
import type { ComponentType } from 'react';
import { MarketplacePage } from '../features/browse/components/marketplace-page';

export default { MarketplacePage } satisfies Record<string, ComponentType>;

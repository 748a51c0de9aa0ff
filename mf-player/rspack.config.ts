import { remoteConfig } from '@pagecast/federation';

export default remoteConfig({
  name: 'mf_player',
  dir: import.meta.dirname,
  port: 3003,
  title: 'Pagecast player (standalone)',
  exposes: { './routes': './src/routes/index.ts' },
});

import { remoteConfig } from '@pagecast/federation';

export default remoteConfig({
  name: 'mf_files',
  dir: import.meta.dirname,
  port: 3001,
  title: 'Pagecast files (standalone)',
  exposes: { './routes': './src/routes/index.ts' },
});

import { remoteConfigs } from '@pagecast/federation';

export default remoteConfigs({
  name: 'mf_files',
  dir: import.meta.dirname,
  port: 3001,
  title: 'Pagecast files (standalone)',
  exposes: { './routes': './src/routes/index.ts' },
});

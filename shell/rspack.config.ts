import { hostConfig } from '@pagecast/federation';

export default hostConfig({ dir: import.meta.dirname, port: 3000, title: 'Pagecast' });

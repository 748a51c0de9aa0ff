// npm run build [-- --force]: builds the shell and the three remotes into their dist/ folders.
import { buildFrontEnds } from './lib/build.mjs';

await buildFrontEnds({ force: process.argv.includes('--force') });

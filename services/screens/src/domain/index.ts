export { codeFromBytes } from './pairing';
export { csvField, localDay, type PlayBatchProblem, playBatchProblems, toCsv } from './plays';
export { isOnline } from './status';
export { nextBoundary, resolvePlaying, scheduleProblems } from '@pagecast/contracts';

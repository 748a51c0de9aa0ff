export { codeFromBytes } from './pairing';
export { csvField, localDay, type PlayBatchProblem, playBatchProblems, toCsv } from './plays';
export { isOnline } from './status';
export { assignedContent, nextBoundary, resolvePlaying, scheduleProblems } from '@pagecast/contracts';

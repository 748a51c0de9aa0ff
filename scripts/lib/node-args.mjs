// Node flags a workspace runs with wherever it is started: the stack's launcher (stack.mjs) and its Dockerfile's CMD
// (deploy/dockerfiles.test.ts holds them to the same).
//
// The gateway's young generation is capped at 4 MiB per semi-space: after the displays' bursts of reads (a fleet
// booting, a storm) V8 grew it to about 100 MiB and kept it, empty, for as long as the process ran, which was most of
// the gateway's resident memory per display (docs/scale.md "Memory per display at the gateway").
export const ownNodeArgs = { gateway: ['--max-semi-space-size=4'] };

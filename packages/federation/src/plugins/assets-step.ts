import type { Compilation, Compiler } from '@rspack/core';

/** A plugin that runs `step` once per build, at `stage` of processAssets (most of our build plugins are one step). */
export function assetsStep(name: string, stage: number, step: (compilation: Compilation) => void) {
  return {
    apply(compiler: Compiler) {
      compiler.hooks.thisCompilation.tap(name, (compilation) => {
        compilation.hooks.processAssets.tap({ name, stage }, () => step(compilation));
      });
    },
  };
}

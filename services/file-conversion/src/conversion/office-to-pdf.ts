import { spawn, spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConversionError } from './errors.ts';
import { officeProfileUrl, removeOfficePipes } from './office-pipes.ts';
import { killGroup } from './process-group.ts';

export interface OfficeToPdfOptions {
  /** Where the per-job directory is made (default: the OS temp dir). */
  tmpDir?: string;
  timeoutMs: number;
  /** 'auto': run LibreOffice without network (unshare -n) when the system allows it. */
  isolateNetwork?: 'auto' | 'off';
  soffice?: string;
}

export interface OfficePdf {
  pdfPath: string;
  /** True when LibreOffice ran in its own network namespace (no network at all). */
  networkIsolated: boolean;
  /** Removes the job directory (profile, input copy, PDF). */
  cleanup(): Promise<void>;
}

/**
 * The profile every job starts from: macros never run, untrusted links (external images, OLE links) are blocked,
 * and documents never update links on load. Writer uses 0 for "never"; Calc's enumeration uses 1.
 */
const PROFILE_REGISTRY = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>1</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="UseLocking" oor:op="fuse"><value>false</value></prop></item>
</oor:items>
`;

/** The profile of an office run in `dir`, as -env:UserInstallation names it (office-pipes.ts derives names from it). */
export { officeProfileUrl };

/** Writes the profile of an office run in `dir` (PROFILE_REGISTRY); returns its URL. */
export async function writeOfficeProfile(dir: string): Promise<string> {
  const profileUser = join(dir, 'profile', 'user');
  await mkdir(profileUser, { recursive: true });
  await writeFile(join(profileUser, 'registrymodifications.xcu'), PROFILE_REGISTRY);
  return officeProfileUrl(dir);
}

let unshareWorks: boolean | undefined;
/** unshare -n needs CAP_SYS_ADMIN (root, or a user namespace); checked once. */
export function canIsolateNetwork(): boolean {
  if (unshareWorks === undefined) {
    const r = spawnSync('unshare', ['-n', '--', 'true'], { stdio: 'ignore', timeout: 5000 });
    unshareWorks = r.status === 0;
  }
  return unshareWorks;
}

/**
 * Converts a PPTX/DOCX to PDF with LibreOffice headless: a fresh profile per job, no network, and a time limit
 * that kills the whole process group (soffice forks soffice.bin).
 */
export async function officeToPdf(
  inputPath: string,
  kind: 'pptx' | 'docx',
  opts: OfficeToPdfOptions,
): Promise<OfficePdf> {
  const jobDir = await mkdtemp(join(opts.tmpDir ?? tmpdir(), 'pagecast-lo-'));
  // a run we killed (time limit) leaves its socket in /tmp (office-pipes.ts)
  const cleanup = () =>
    Promise.all([rm(jobDir, { recursive: true, force: true }), removeOfficePipes(officeProfileUrl(jobDir))]).then(
      () => {},
    );
  try {
    const profile = await writeOfficeProfile(jobDir);
    // Our own name and extension: LibreOffice picks its import filter from them, and the member's name is not trusted.
    const input = join(jobDir, `document.${kind}`);
    await copyFile(inputPath, input);
    const outDir = join(jobDir, 'out');
    await mkdir(outDir);
    const isolated = opts.isolateNetwork !== 'off' && canIsolateNetwork();
    const soffice = opts.soffice ?? 'soffice';
    const args = [
      `-env:UserInstallation=${profile}`,
      '--headless',
      '--invisible',
      '--norestore',
      '--nolockcheck',
      '--nodefault',
      '--nologo',
      '--convert-to',
      'pdf',
      '--outdir',
      outDir,
      input,
    ];
    const [cmd, cmdArgs] = isolated ? ['unshare', ['-n', '--', soffice, ...args]] : [soffice, args];
    await runGroup(cmd, cmdArgs, opts.timeoutMs, jobDir);
    const produced = (await readdir(outDir)).filter((f) => f.endsWith('.pdf'));
    if (produced.length !== 1) {
      throw new ConversionError('FILE_CONVERSION_FAILED', 'LibreOffice produced no PDF for this document');
    }
    return { pdfPath: join(outDir, produced[0] as string), networkIsolated: isolated, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

function runGroup(cmd: string, args: string[], timeoutMs: number, home: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      // HOME inside the job dir: nothing of LibreOffice's lands in the service user's home.
      env: { ...process.env, HOME: home, SAL_USE_VCLPLUGIN: 'svp' },
    });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString();
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new ConversionError('FILE_CONVERSION_FAILED', `LibreOffice could not start: ${err.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      // Leftover helpers in the group (e.g. a hung oosplash child) go with it.
      killGroup(child);
      if (timedOut) reject(new ConversionError('FILE_CONVERSION_TIMEOUT', 'LibreOffice took too long'));
      else if (code !== 0) {
        reject(new ConversionError('FILE_CONVERSION_FAILED', `LibreOffice exited ${code}: ${stderr.slice(-500)}`));
      } else resolve();
    });
  });
}

// Finding the nsys-ai executable named in the settings, with a message that says how to fix it when it is missing.
// A bare name is looked up on PATH, then in the standard places a first run may have it: ~/.local/bin and
// the trusted workspace folders' build/ (never an untrusted folder's: that would run a binary the folder ships). The
// extension host's PATH is a resolved login shell's, not the one of the shell that started VS Code, so a build that is
// "on PATH" in a terminal can be missing here.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export type ServerPath = { ok: true; path: string } | { ok: false; message: string };

export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

const FIX =
  'Build it (cmake -S . -B build && cmake --build build) and put build/nsys-ai on PATH, or set "nsysAi.serverPath" ' +
  'to its absolute path on the machine where the workspace is (the GPU box under Remote-SSH).';

/** The folders looked in after PATH: ~/.local/bin, then each trusted workspace folder's build/. */
export function standardServerDirs(workspaceFolders: readonly string[], trusted: boolean, home = os.homedir()): string[] {
  return [path.join(home, '.local', 'bin'), ...(trusted ? workspaceFolders.map((f) => path.join(f, 'build')) : [])];
}

export function resolveServerPath(setting: string, envPath: string | undefined, standardDirs: readonly string[] = []): ServerPath {
  const wanted = setting.trim() || 'nsys-ai';
  if (wanted.includes('/') || wanted.includes(path.sep)) {
    if (isExecutable(wanted)) return { ok: true, path: wanted };
    const why = fs.existsSync(wanted) ? 'is not an executable file' : 'does not exist';
    return { ok: false, message: `The nsys-ai server "${wanted}" (setting nsysAi.serverPath) ${why}. ${FIX}` };
  }
  for (const dir of [...(envPath ?? '').split(path.delimiter), ...standardDirs]) {
    if (!dir) continue;
    const candidate = path.join(dir, wanted);
    if (isExecutable(candidate)) return { ok: true, path: candidate };
  }
  const also = standardDirs.length ? ` nor in ${standardDirs.join(', ')}` : '';
  return { ok: false, message: `The nsys-ai server "${wanted}" was not found on PATH${also}. ${FIX}` };
}

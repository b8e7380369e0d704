// Finding the nsys-ai executable named in the settings, with a message that says how to fix it when it is missing.
import * as fs from 'fs';
import * as path from 'path';

export type ServerPath = { ok: true; path: string } | { ok: false; message: string };

function isExecutable(file: string): boolean {
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

export function resolveServerPath(setting: string, envPath: string | undefined): ServerPath {
  const wanted = setting.trim() || 'nsys-ai';
  if (wanted.includes('/') || wanted.includes(path.sep)) {
    if (isExecutable(wanted)) return { ok: true, path: wanted };
    const why = fs.existsSync(wanted) ? 'is not an executable file' : 'does not exist';
    return { ok: false, message: `The nsys-ai server "${wanted}" (setting nsysAi.serverPath) ${why}. ${FIX}` };
  }
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, wanted);
    if (isExecutable(candidate)) return { ok: true, path: candidate };
  }
  return { ok: false, message: `The nsys-ai server "${wanted}" was not found on PATH. ${FIX}` };
}

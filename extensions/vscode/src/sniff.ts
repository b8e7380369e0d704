// Is a .sqlite file an Nsight Systems export? A cheap look at its first MiB, where SQLite keeps the schema of a
// freshly written database: the SQLite header, then the names of two tables every nsys export has. Used only to
// decide whether to offer "Open as Nsight profile"; the server still decides when the file is opened.
import * as fs from 'fs';

const HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const MARKERS = ['StringIds', 'TARGET_INFO_'].map((m) => Buffer.from(m, 'latin1'));

export async function looksLikeNsightExport(file: string, bytes = 1 << 20): Promise<boolean> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(file, 'r');
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    const head = buffer.subarray(0, bytesRead);
    return head.subarray(0, HEADER.length).equals(HEADER) && MARKERS.every((m) => head.includes(m));
  } catch {
    return false;
  } finally {
    await handle?.close();
  }
}

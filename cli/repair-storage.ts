import { repairFile } from '../lib/storage/file/index.js';
import type { StorageConfig } from './open-storage.js';

/** What `repair` works on: the data file, which the command line has already required. */
export type RepairConfig = Required<Pick<StorageConfig, 'dataFile'>> & Pick<StorageConfig, 'log'>;

/**
 * The `repair` maintenance command: repairs the data file `--data` (`PETSTORE_DATA`) names (backup, then cut
 * at the first bad record) and returns the one line to print. Refuses while a server holds the file.
 */
export async function repairStorage(config: RepairConfig): Promise<string> {
  const report = await repairFile(config.dataFile, { log: config.log });
  if (report.cutAt === undefined) return `${report.path}: no damage found, nothing changed (${report.pets} pets)`;
  const reserved = report.reservedId === undefined ? '' : `; ids up to ${report.reservedId} stay reserved`;
  return `${report.path}: cut at byte offset ${report.cutAt} (${report.reason}), removing ${report.removedBytes} bytes; `
    + `${report.pets} pets kept${reserved}; the file as it was is in ${report.backupPath}`;
}

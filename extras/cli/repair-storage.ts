import { repairFile } from '../file-storage/index.js';
import type { StorageConfig } from './open-storage.js';

/** What `repair` works on: the data file, which the command line has already required, where notes go, and whether to salvage. */
export type RepairConfig = Required<Pick<StorageConfig, 'dataFile'>> & Pick<StorageConfig, 'log'> & {
  /** `--salvage`: keep every intact record after the damage instead of cutting at it. */
  salvage?: boolean;
};

/**
 * The `repair` maintenance command: repairs the data file `--data` (`PETSTORE_DATA`) names (backup, then
 * cut at the first bad record, or with `--salvage` drop only what is damaged) and returns the one line
 * to print. Refuses while a server holds the file.
 */
export async function repairStorage(config: RepairConfig): Promise<string> {
  const isSalvage = config.salvage === true;
  const report = await repairFile(config.dataFile, { log: config.log, salvage: isSalvage });
  if (report.cutAt === undefined) return `${report.path}: no damage found, nothing changed (${report.pets} pets)`;
  const reserved = report.reservedId === undefined ? '' : `; ids up to ${report.reservedId} stay reserved`;
  if (isSalvage) {
    return `${report.path}: salvaged from the first damage at byte offset ${report.cutAt} (${report.reason}): `
      + `${report.pets} pets kept, ${report.salvagedPets} of them after the damage; ${report.removedBytes} bytes dropped, kept in ${report.droppedPath}${reserved}; `
      + `the file as it was is in ${report.backupPath}`;
  }
  return `${report.path}: cut at byte offset ${report.cutAt} (${report.reason}), removing ${report.removedBytes} bytes; `
    + `${report.pets} pets kept${reserved}; the file as it was is in ${report.backupPath}`;
}

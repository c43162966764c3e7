import * as zlib from 'node:zlib';

/** The reflected CRC-32 polynomial of zlib, PNG and Ethernet (ISO 3309). */
const POLYNOMIAL = 0xedb88320;

let table: Uint32Array | undefined;

/** The 256-entry lookup table, built on first use so Node versions with zlib.crc32 never pay for it. */
function crcTable(): Uint32Array {
  if (table !== undefined) return table;
  table = new Uint32Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let value = byte;
    for (let bit = 0; bit < 8; bit++) value = value & 1 ? (value >>> 1) ^ POLYNOMIAL : value >>> 1;
    table[byte] = value;
  }
  return table;
}

/** CRC-32 of `data` continuing from `initial`, computed in JavaScript one byte at a time; the fallback for Node versions without zlib.crc32. */
export function tableCrc32(data: Uint8Array, initial = 0): number {
  const lookup = crcTable();
  let crc = ~initial;
  for (let index = 0; index < data.length; index++) {
    crc = (lookup[(crc ^ (data[index] as number)) & 0xff] as number) ^ (crc >>> 8);
  }
  return ~crc >>> 0;
}

// zlib.crc32 arrived in Node 20.15 and 22.2; the package supports every Node 20.
const nativeCrc32: ((data: Uint8Array, initial?: number) => number) | undefined = typeof zlib.crc32 === 'function' ? zlib.crc32 : undefined;

/** CRC-32 (the zlib polynomial) of `data`, continuing from `initial`; native where Node has it. */
export const crc32: (data: Uint8Array, initial?: number) => number = nativeCrc32 ?? tableCrc32;

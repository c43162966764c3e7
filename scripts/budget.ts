// Prints the weight of the code against its budgets (issue 40 item 7; docs/architecture.md): the
// kernel's lines (lib/ and server/), the house's (with extras/ and bench/), the kernel's lines wider
// than the width budget, and the lines of each folder, so a reader sees where the weight is. Lines are
// counted as `wc -l` counts them, over the `.ts` files. Exits 1 past any budget. Run with
// `npm run budget` (or `tsx scripts/budget.ts <root>` on another tree); test/budget.test.ts runs it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The kernel's folders and the most lines of TypeScript they may hold together. */
export const KERNEL = { folders: ['lib', 'server'], budget: 4_700 } as const;

/** The house's folders (the kernel, its extras and its benchmarks) and the most lines they may hold. */
export const HOUSE = { folders: ['lib', 'server', 'extras', 'bench'], budget: 20_000 } as const;

/** The widest a kernel line may be, in characters: the line budget cannot be held by folding lines. */
export const KERNEL_WIDTH = 160;

/** One `.ts` file: its path from the root, its lines (`wc -l`: newlines) and the widths of its lines. */
interface SourceFile {
  readonly path: string;
  readonly lines: number;
  readonly widths: readonly number[];
}

/** A kernel line wider than KERNEL_WIDTH. */
export interface WideLine {
  readonly path: string;
  readonly line: number;
  readonly width: number;
}

/** The weight of a tree: the budgets' figures, and the lines of each top folder and of each folder in it. */
export interface Weight {
  readonly kernelLines: number;
  readonly houseLines: number;
  readonly wideLines: readonly WideLine[];
  readonly folders: readonly { readonly folder: string; readonly lines: number; readonly files: number }[];
}

function sourceFiles(root: string, folder: string): SourceFile[] {
  const entries = (() => {
    try {
      return readdirSync(join(root, folder), { withFileTypes: true });
    } catch {
      return [];
    }
  })();
  return entries.flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(root, path);
    if (!entry.name.endsWith('.ts')) return [];
    const text = readFileSync(join(root, path), 'utf8');
    // Characters as a reader counts them: a code point each, not UTF-16 units.
    return [{ path, lines: text.split('\n').length - 1, widths: text.split('\n').map((line) => [...line].length) }];
  });
}

/** Weighs the tree at root. */
export function weigh(root: string): Weight {
  const files = HOUSE.folders.flatMap((folder) => sourceFiles(root, folder));
  const isKernel = (file: SourceFile): boolean => KERNEL.folders.some((folder) => file.path.startsWith(`${folder}/`));
  const sum = (some: readonly SourceFile[]): number => some.reduce((total, file) => total + file.lines, 0);
  const byFolder = new Map<string, SourceFile[]>();
  for (const file of files) {
    const [top = '', inner, ...rest] = file.path.split('/');
    for (const folder of rest.length > 0 ? [top, `${top}/${inner}`] : [top]) byFolder.set(folder, [...(byFolder.get(folder) ?? []), file]);
  }
  const folders = [...byFolder].map(([folder, some]) => ({ folder, lines: sum(some), files: some.length }));
  const linesOf = (folder: string): number => folders.find((entry) => entry.folder === folder)?.lines ?? 0;
  // Each top folder, heaviest first, then the folders in it, heaviest first.
  const rank = (folder: string): [number, string, number] => [-linesOf(folder.split('/')[0] ?? ''), folder.split('/')[0] ?? '', folder.includes('/') ? 1 : 0];
  return {
    kernelLines: sum(files.filter(isKernel)),
    houseLines: sum(files),
    wideLines: files.filter(isKernel).flatMap((file) => file.widths.flatMap((width, index) => (width > KERNEL_WIDTH ? [{ path: file.path, line: index + 1, width }] : []))),
    folders: folders.sort((left, right) => {
      const [leftTop, leftName, leftDepth] = rank(left.folder);
      const [rightTop, rightName, rightDepth] = rank(right.folder);
      return leftTop - rightTop || leftName.localeCompare(rightName) || leftDepth - rightDepth || right.lines - left.lines;
    }),
  };
}

/** What breaks a budget, one sentence each; empty when every budget holds. */
export function breaches(weight: Weight): string[] {
  return [
    ...(weight.kernelLines > KERNEL.budget ? [`the kernel (${KERNEL.folders.join('/, ')}/) holds ${weight.kernelLines.toLocaleString('en')} lines, over its budget of ${KERNEL.budget.toLocaleString('en')}`] : []),
    ...(weight.houseLines > HOUSE.budget ? [`the house (${HOUSE.folders.join('/, ')}/) holds ${weight.houseLines.toLocaleString('en')} lines, over its budget of ${HOUSE.budget.toLocaleString('en')}`] : []),
    ...(weight.wideLines.length > 0 ? [`${weight.wideLines.length} kernel ${weight.wideLines.length === 1 ? 'line is' : 'lines are'} wider than ${KERNEL_WIDTH} characters: unfold them (folding lines does not hold the line budget)`] : []),
  ];
}

/** The report `npm run budget` prints. */
export function report(weight: Weight): string {
  const figure = (count: number): string => count.toLocaleString('en').padStart(7);
  return [
    `kernel ${figure(weight.kernelLines)} lines of ${KERNEL.budget.toLocaleString('en')}  (${KERNEL.folders.join(', ')})`,
    `house  ${figure(weight.houseLines)} lines of ${HOUSE.budget.toLocaleString('en')}  (${HOUSE.folders.join(', ')})`,
    `kernel lines wider than ${KERNEL_WIDTH} characters: ${weight.wideLines.length}`,
    ...[...weight.wideLines].sort((left, right) => right.width - left.width).slice(0, 10).map((wide) => `  ${String(wide.width).padStart(4)}  ${wide.path}:${wide.line}`),
    '',
    'lines by folder:',
    ...weight.folders.map(({ folder, lines, files }) => `${figure(lines)}  ${folder.includes('/') ? '  ' : ''}${folder}/ (${files} ${files === 1 ? 'file' : 'files'})`),
    '',
    ...breaches(weight).map((breach) => `over budget: ${breach}`),
  ].join('\n');
}

if (process.argv[1] === import.meta.filename) {
  const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..'));
  const weight = weigh(root);
  process.stdout.write(`${report(weight)}\n`);
  if (breaches(weight).length > 0) process.exitCode = 1;
}

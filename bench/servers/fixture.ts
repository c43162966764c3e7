/** The key every benchmark server accepts. */
export const BENCH_KEY = 'bench-key-2f7c1d9e';

/** Number of pets every benchmark server starts with. */
export const PREFILLED_PETS = 1000;

const STATUSES = ['available', 'pending', 'sold'] as const;

/** The pets every server is filled with before measuring: the same names, categories and statuses. */
export function prefillPets(count: number = PREFILLED_PETS): { name: string; categoryId: number; status: (typeof STATUSES)[number] }[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `pet-${String(index).padStart(6, '0')}`,
    categoryId: index % 50,
    status: STATUSES[index % 3] as (typeof STATUSES)[number],
  }));
}

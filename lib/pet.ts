/** The availability states an animal can be in, in the spec's order [spec 2, PetStatus]. */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const;

/** One of the spec's availability states [spec 2, PetStatus]. */
export type PetStatus = (typeof PET_STATUSES)[number];

/** The fields of a NewPet, in the spec's order [spec 2, NewPet]; any other field is rejected. */
export const NEW_PET_FIELDS = ['name', 'categoryId', 'status'] as const;

/** The NewPet fields a client must send [spec 2, 4.2]. */
export const REQUIRED_NEW_PET_FIELDS = ['name', 'categoryId'] as const;

/** The body for creating a pet [spec 2, NewPet]; `status` is absent when not given (no default). */
export interface NewPet {
  name: string;
  categoryId: number;
  status?: PetStatus;
}

/**
 * A stored pet: a NewPet plus the id the service assigned [spec 2, Pet]. Read-only, as every pet
 * handed out is frozen: an assignment to a field fails to type-check instead of throwing at run time.
 */
export interface Pet extends Readonly<NewPet> {
  readonly id: number;
}

/** Builds the stored, frozen form of a pet: fields in the spec's order, `status` only when given. */
export function freezePet(id: number, pet: NewPet): Pet {
  const { name, categoryId, status } = pet;
  return Object.freeze(status === undefined ? { id, name, categoryId } : { id, name, categoryId, status });
}

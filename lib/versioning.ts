/** The path prefix of the interface [spec 1, 9: both base addresses end in `/v1`]. */
export const VERSION_PATH = '/v1';

/** The interface version this package implements [spec 9]. */
export const INTERFACE_VERSION = '1.0.0';

/** When `getPet` was deprecated, in Unix seconds, as RFC 9745 counts them (decided: 2026-01-01T00:00:00Z, the spec gives only the removal date). */
export const GET_PET_DEPRECATED_AT = Date.UTC(2026, 0, 1) / 1000;

/** When `getPet` is removed [spec 4.3, 9: 5 December 2030], as an IMF-fixdate (RFC 9110 §5.6.7), the form RFC 8594 announces it in. */
export const GET_PET_SUNSET = new Date(Date.UTC(2030, 11, 5)).toUTCString();

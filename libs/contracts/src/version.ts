/** The product version, as published in the API document (kept equal to package.json by a test). */
export const VIGIL_VERSION = '0.1.0';

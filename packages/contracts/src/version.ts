/**
 * The version of the Chat and Search Service API that both OpenAPI documents carry (ARCHITECTURE.md
 * decision 10). Paths stay as in the spec: an addition raises the minor version, a fix the patch;
 * a breaking change would get a new path prefix instead of changing these paths.
 */
export const apiVersion = '1.0.0'

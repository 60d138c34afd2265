/**
 * The ceiling of every e2e test and hook that does not set its own (set up by jest.config.js).
 * Tests wait on conditions (`eventually`, Playwright's waitFor), so this ceiling only stops a hang; it is
 * generous because the suite must pass on a loaded machine: a newcomer's `npm test` at load 20 on two
 * cores gives a suite a tenth of a core, and a browser journey of ten seconds then takes minutes.
 */
export const E2E_TEST_CEILING_MS = 240_000;

jest.setTimeout(E2E_TEST_CEILING_MS);

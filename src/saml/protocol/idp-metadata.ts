import { IdPMetadata } from 'samlify';
import { IdpSettings } from '../idp/idp-settings';
import { BINDING, SUPPORTED_NAME_ID_FORMATS } from './saml-urns';

/**
 * The IdP's EntityDescriptor, rendered by samlify's metadata builder (which
 * escapes attribute values and emits one KeyDescriptor per certificate). Built
 * once at boot: the document changes only when the configuration does.
 * During a key rollover the next certificate is published beside the current one
 * so SPs trust it before the switch.
 */
export function buildIdpMetadata(settings: IdpSettings): string {
  const signingCert = settings.nextCertBase64 ? [settings.certBase64, settings.nextCertBase64] : [settings.certBase64];
  return quietly(() =>
    IdPMetadata({
      entityID: settings.entityId,
      signingCert,
      wantAuthnRequestsSigned: false,
      nameIDFormat: [...SUPPORTED_NAME_ID_FORMATS],
      singleSignOnService: [
        { Binding: BINDING.redirect, Location: settings.ssoUrl },
        { Binding: BINDING.post, Location: settings.ssoUrl },
      ],
    } as unknown as Parameters<typeof IdPMetadata>[0]).getMetadata(),
  );
}

/** samlify warns on console that there is no SingleLogoutService; SLO is out of scope by design (spec). */
function quietly<T>(fn: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!/SingleLogoutService/.test(String(args[0]))) warn(...args);
  };
  try {
    return fn();
  } finally {
    console.warn = warn;
  }
}

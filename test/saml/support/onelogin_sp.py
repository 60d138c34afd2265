"""python3-saml (Debian's python3-onelogin-saml2) as a second independent service provider.

stdin: JSON {metadata, sp_entity_id, acs_url, request_id, saml_response (base64)}
stdout: JSON {ok, name_id, authn_classes} or {ok: false, error}
Strict mode: signature (xmlsec), audience, destination, recipient, InResponseTo and times are checked.
"""
import json
import sys
from urllib.parse import urlsplit

from onelogin.saml2.idp_metadata_parser import OneLogin_Saml2_IdPMetadataParser
from onelogin.saml2.response import OneLogin_Saml2_Response
from onelogin.saml2.settings import OneLogin_Saml2_Settings


def main():
    job = json.load(sys.stdin)
    idp = OneLogin_Saml2_IdPMetadataParser.parse(job['metadata'])
    settings = OneLogin_Saml2_IdPMetadataParser.merge_settings({
        'strict': True,
        'debug': False,
        'sp': {
            'entityId': job['sp_entity_id'],
            'assertionConsumerService': {
                'url': job['acs_url'],
                'binding': 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
            },
            'NameIDFormat': 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
        },
        'security': {'wantAssertionsSigned': True, 'wantMessagesSigned': False, 'requestedAuthnContext': False},
    }, idp)
    acs = urlsplit(job['acs_url'])
    request_data = {
        'https': 'on' if acs.scheme == 'https' else 'off',
        'http_host': acs.hostname,
        'server_port': str(acs.port or (443 if acs.scheme == 'https' else 80)),
        'script_name': acs.path,
        'get_data': {},
        'post_data': {'SAMLResponse': job['saml_response']},
    }
    try:
        response = OneLogin_Saml2_Response(OneLogin_Saml2_Settings(settings, sp_validation_only=True), job['saml_response'])
        response.is_valid(request_data, request_id=job['request_id'], raise_exceptions=True)
    except Exception as err:  # the test reads the refusal
        print(json.dumps({'ok': False, 'error': f'{type(err).__name__}: {err}'}))
        return
    print(json.dumps({'ok': True, 'name_id': response.get_nameid(), 'authn_classes': response.get_authn_contexts()}))


if __name__ == '__main__':
    main()

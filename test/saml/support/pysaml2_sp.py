"""pysaml2 as an independent service provider: reads one SAML Response and says what it accepted.

stdin: JSON {metadata, sp_entity_id, acs_url, request_id, saml_response (base64)}
stdout: JSON {ok, name_id, authn_class} or {ok: false, error}
Run with Debian's python3 (package python3-pysaml2), which uses xmlsec1 to check signatures.
"""
import json
import sys
import tempfile

from saml2 import BINDING_HTTP_POST
from saml2.client import Saml2Client
from saml2.config import SPConfig


def main():
    job = json.load(sys.stdin)
    with tempfile.NamedTemporaryFile('w', suffix='.xml', delete=False) as md:
        md.write(job['metadata'])
    config = SPConfig()
    config.load({
        'entityid': job['sp_entity_id'],
        'metadata': {'local': [md.name]},
        'accepted_time_diff': 300,
        'service': {
            'sp': {
                'endpoints': {'assertion_consumer_service': [(job['acs_url'], BINDING_HTTP_POST)]},
                'want_assertions_signed': True,
                'want_response_signed': False,
                'allow_unsolicited': False,
            },
        },
    })
    client = Saml2Client(config)
    try:
        response = client.parse_authn_request_response(
            job['saml_response'], BINDING_HTTP_POST, outstanding={job['request_id']: '/'}
        )
    except Exception as err:  # the test reads the refusal
        print(json.dumps({'ok': False, 'error': f'{type(err).__name__}: {err}'}))
        return
    if response is None:
        print(json.dumps({'ok': False, 'error': 'no response'}))
        return
    classes = [info[0] for info in response.authn_info()]
    print(json.dumps({'ok': True, 'name_id': response.name_id.text, 'authn_class': classes[0] if classes else None}))


if __name__ == '__main__':
    main()

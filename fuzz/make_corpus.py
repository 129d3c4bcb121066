#!/usr/bin/env python3
"""Regenerate the seed corpora fuzz/corpus/<target>/ from ../shared/vectors (and, for the
formats the vectors do not carry, from the pqsig CLI of a build: key records, workloads).
Usage: python3 fuzz/make_corpus.py [path/to/pqsig]. Small on purpose: the fuzzers grow it."""
import base64, hashlib, json, os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
VEC = os.path.join(HERE, '..', '..', 'shared', 'vectors')
PQSIG = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, '..', 'build', 'pqsig')


def put(target, data, name=None):
    d = os.path.join(HERE, 'corpus', target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    name = name or hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


def load(rel):
    with open(os.path.join(VEC, rel)) as f:
        return json.load(f)


rfc = load('rfc9421/examples.json')
wba = load('webbotauth/test-vectors.json')
msgs = {k: v['text'] for k, v in rfc['messages'].items()}


def with_sig(text, si, sig):
    head, _, body = text.replace('\r\n', '\n').partition('\n\n')
    return head + '\nSignature-Input: ' + si + '\nSignature: ' + sig + '\n\n' + body


def wba_request(v):
    t = 'POST /foo?param=Value&Pet=dog HTTP/1.1\nHost: example.com\n'
    if v.get('signatureAgentHeader'):
        t += 'Signature-Agent: ' + v['signatureAgentHeader'] + '\n'
    return t + 'Signature-Input: ' + v['signatureInputHeader'] + '\nSignature: ' + v['signatureHeader'] + '\n\n'


# ---- structured fields: Signature-Input / Signature / Signature-Agent values + RFC 9651 examples
sf_values = []
for e in rfc['examples']:
    if 'signatureInputHeader' in e:
        sf_values += [(2, e['signatureInputHeader']), (2, e['signatureHeader'])]
for v in wba['vectors']:
    sf_values += [(2, v['signatureInputHeader']), (2, v['signatureHeader'])]
    if v.get('signatureAgentHeader'):
        sf_values.append((2, v['signatureAgentHeader']))
sf_values += [(0, '"foo";a=1;b=?0'), (0, '@1659578233'), (0, '%"f%c3%bc%c3%bc"'), (0, '-4.5;x=:AQID:'),
              (1, 'sugar, tea, rum'), (1, '("foo" "bar");lvl=5, ("baz");lvl=1, ()'), (2, 'a=?0, b, c;foo=bar'),
              (2, 'rating=1.5, feelings=(joy sadness)'), (2, 'a=1, b=2, a=3'), (0x82, 'a=1, b=2, c=3')]
for t, v in sf_values:
    put('sf', bytes([t]) + v.encode())
put('sf_json', b'\x00[{"__type":"token","value":"tok"},[["p",{"__type":"binary","value":"NBUQ===="}]]]')
put('sf_json', b'\x01[[1,[]],[[[2,[]],["s",[]]],[["q",{"__type":"date","value":5}]]]]')
put('sf_json', b'\x02[["a",[1.5,[]]],["b",[{"__type":"displaystring","value":"\\u00fc"},[["x",true]]]]]')

# ---- HTTP messages and RFC 9421 verification (byte 0 = policy bits of fuzz/targets/httpsig_verify.cpp)
for t in msgs.values():
    put('http_message', t)
for e in rfc['examples']:
    if 'signatureInputHeader' in e and e.get('message') in msgs:
        signed = with_sig(msgs[e['message']], e['signatureInputHeader'], e['signatureHeader'])
        put('http_message', signed)
        put('httpsig_verify', bytes([2]) + signed.encode())
        put('httpsig_verify', bytes([0]) + signed.encode())
    elif 'signedRequest' in e:
        put('httpsig_verify', bytes([2]) + e['signedRequest']['text'].encode())
    for var in e.get('variants', []):
        put('httpsig_verify', bytes([2]) + var['message']['text'].encode())
# a response with the request it answers (;req components)
resp = [e for e in rfc['examples'] if e.get('message') == 'test-response' and 'signatureInputHeader' in e][0]
put('httpsig_verify', bytes([2]) + (with_sig(msgs['test-response'], resp['signatureInputHeader'], resp['signatureHeader'])
                                    + '\n\n----\n' + msgs['test-request']).encode())

# ---- Web Bot Auth requests and the signed directory
for v in wba['vectors']:
    put('webbotauth_request', bytes([0x10]) + wba_request(v).encode())
    put('httpsig_verify', bytes([1 | 4]) + wba_request(v).encode())
sd = wba['signedDirectoryResponse']
text = 'HTTP/1.1 200 OK\n' + ''.join(k + ': ' + v + '\n' for k, v in sd['responseHeaders'].items()) + '\n' + sd['responseBody']
put('webbotauth_directory', b'\x02' + text.encode())
put('webbotauth_directory', b'\x01' + sd['responseBody'].encode())
put('http_message', text)

# ---- JWK / JWKS, PEM / DER
jwks = []
for k in rfc['keys'].values():
    if 'jwk' in k:
        jwks.append(k['jwk'])
for name in ('test-key-ed25519', 'test-key-rsa-pss'):
    jwks += [wba['keys'][name]['publicJwk']]
akp = load('jose/ml-dsa-akp-examples.json')
def find_jwks(o):
    if isinstance(o, dict):
        if 'kty' in o:
            yield o
        for v in o.values():
            yield from find_jwks(v)
    elif isinstance(o, list):
        for v in o:
            yield from find_jwks(v)
jwks += list(find_jwks(akp))[:4] + list(find_jwks(load('jose/rfc8037-okp.json')))[:4]
for i, j in enumerate(jwks):
    put('jwk', bytes([i % 6]) + json.dumps(j).encode())
put('jwk', b'\x00' + json.dumps({'keys': jwks[:3]}).encode())
put('jwk', b'\x00{"kty":7}')
for f in sorted(os.listdir(os.path.join(VEC, 'rfc9421', 'keys'))):
    if not f.endswith('.pem'):
        continue
    pem = open(os.path.join(VEC, 'rfc9421', 'keys', f)).read()
    put('pem_der', b'\x02' + pem.encode())
    put('pem_der', b'\x03' + pem.encode())
    body = ''.join(l for l in pem.splitlines() if not l.startswith('-----'))
    put('pem_der', (b'\x01' if 'key.pem' in f else b'\x00') + base64.b64decode(body))

# ---- PQ public keys + signatures ("<suite>\0" + pk || sig), KEM keys and ciphertexts
def b64u(s):
    return base64.urlsafe_b64decode(s + '=' * (-len(s) % 4))
for j in find_jwks(akp):
    if j.get('kty') == 'AKP' and 'pub' in j:
        put('pq_public', j['alg'].lower().encode() + b'\0\0' + b64u(j['pub']) + bytes(16))
for j in find_jwks(load('jose/rfc8037-okp.json')):
    if j.get('crv') == 'Ed25519' and 'x' in j:
        put('pq_public', b'ed25519\0\0' + b64u(j['x']) + bytes(64))
sv = load('acvp/ml-dsa-sigVer.json')
def first_tests(o, n):
    out = []
    for g in o.get('testGroups', []):
        for t in g.get('tests', []):
            out.append((g, t))
            if len(out) >= n:
                return out
    return out
for g, t in first_tests(sv, 2):
    ps = g.get('parameterSet', 'ML-DSA-44').lower()
    pk = t.get('pk') or g.get('pk')
    if pk and t.get('signature'):
        put('pq_public', ps.encode() + b'\0\0' + bytes.fromhex(pk) + bytes.fromhex(t['signature']))
ed = load('acvp/ml-kem-encapDecap.json')
for g, t in first_tests(ed, 40):
    ps = g.get('parameterSet', '').lower()
    if t.get('ek'):
        put('kem', ps.encode() + b'\0\x01' + bytes.fromhex(t['ek']), 'ek-' + ps)
    if t.get('c'):
        put('kem', ps.encode() + b'\0\x00' + bytes.fromhex(t['c']), 'c-' + ps)

# ---- canonical signing inputs (the golden encodings of tests/canonical)
src = open(os.path.join(HERE, '..', 'tests', 'canonical', 'test_canonical.cpp')).read()
for name in ('kGolden1', 'kGolden2'):
    m = re.search(name + r' =\s*((?:\s*"[0-9a-f]*")+)', src)
    put('canonical', bytes.fromhex(''.join(re.findall(r'"([0-9a-f]*)"', m.group(1)))), name)

# ---- batch lines (the protocol of docs/*.md)
for line in ['{"op":"keygen","alg":"ml-dsa-44","seed":"' + '00' * 32 + '","id":1}',
             '{"op":"sign","alg":"ed25519","sk":"' + '01' * 32 + '","msg":"6869"}',
             '{"op":"verify","alg":"ml-dsa-44","pk":"00","sig":"00","msg":""}',
             '{"op":"encaps","alg":"ml-kem-768","ek":"00"}',
             '{"op":"keygen","alg":"slh-dsa-sha2-128f","seed":"00"}',
             '{"alg":"\xc3', '[1]', 'not json']:
    put('batch_line', line.encode('utf-8', 'surrogateescape') if isinstance(line, str) else line)

# ---- hand-written seeds for the parsers the vectors do not cover: the serve policy file
# (docs/deploy.md), the registry text format (draft-meunier-webbotauth-registry §4.2) and ledger /
# batch provider items (docs/ledger.md)
put('serve_policy', b'{\n  "required_tag": "web-bot-auth",\n  "required_components": ["@authority", "signature-agent"],\n  "clock_skew": 60,\n  "max_validity": 3600,\n  "max_age": 300,\n  "required_labels": ["sig1"],\n  "algorithms": ["ed25519", "ml-dsa-44"],\n  "min_valid": 1,\n  "require_nonce": true,\n  "agents": ["https://crawler.example"]\n}\n', 'deploy_example.json')
put('serve_policy', b'{}', 'empty_object.json')
put('serve_policy', b'{"required_components":["\\"@method\\"","\\"@path\\""],"max_validity":86400,"algorithms":["ed25519"]}', 'no_authority.json')
put('webbotauth_registry', b'http://not-https.example/card\n', 'bad_scheme.txt')
put('webbotauth_registry', b'https://a.example/card   # comment\r\n\r\ndata:application/json;base64,eyJjbGllbnRfbmFtZSI6IngiLCJqd2tzIjp7ImtleXMiOltdfX0=\rdata:application/json,%7B%22jwks_uri%22%3A%22https%3A%2F%2Fk.example%2Fd%22%7D', 'crlf_base64_percent.txt')
put('webbotauth_registry', b'# An example list of bots\nhttps://bot1.example.com/.well-known/http-message-signatures-directory\nhttps://crawler2.example.com/.well-known/http-message-signatures-directory\n\n# Now the list of platforms\nhttps://zerotrust-gateway.example.com/v1/signature-agent-card\n\n# Below is an inlined card with the data URL scheme\ndata:application/json,{"client_name":"Inline Bot","jwks_uri":"https://inline.example.com/.well-known/http-message-signatures-directory"}\n', 'draft_example.txt')
# agent cards (draft-meunier-webbotauth-registry §3): byte 0 even = fetched from its client_id
# (https://bot.example/.well-known/signature-agent-card), odd = inlined in a registry
card_url = 'https://bot.example/.well-known/signature-agent-card'
put('agent_card', b'\0' + json.dumps({'client_id': card_url, 'client_name': 'Bot', 'purpose': 'crawl',
    'jwks': {'keys': [{'kty': 'OKP', 'crv': 'Ed25519', 'x': 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs'}]}}).encode(), 'fetched_jwks.json')
put('agent_card', b'\0' + json.dumps({'client_id': 'https://other.example/card', 'jwks_uri': 'https://bot.example/keys'}).encode(), 'wrong_client_id.json')
put('agent_card', b'\1{"client_name":"Inline Bot","jwks_uri":"https://inline.example.com/.well-known/http-message-signatures-directory"}', 'inline_jwks_uri.json')
put('agent_card', b'\1{"client_id":"https://a.example/c","jwks":{"keys":[]},"jwks_uri":"https://a.example/k","web_bot_auth":{}}', 'inline_both.json')
put('ledger_item', b'{"alg":"slh-dsa-sha2-128s","pk":"","msg":"","sig":"","prehash":"SHA2-256"}', 'prehash.json')
put('ledger_item', b'{"alg":"ed25519","pk":"d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a","msg":"","sig":"e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"}', 'rfc8032_test1.json')
put('ledger_item', b'{"alg":"ml-dsa-44","pk":"00","msg":"00","sig":"00","ctx":"01"}', 'short_mldsa.json')

# ---- hbs_forms: the public keys of the lms_verify / xmss_verify seeds in SPKI (RFC 9802), COSE_Key
# (RFC 8778) and our AKP JWK forms (byte 0: 0 SPKI, 1 COSE_Key, 2 JWK, 3/4/5 raw HSS/XMSS/XMSS^MT key)
def _der(tag, body):
    n = len(body)
    ln = bytes([n]) if n < 128 else (bytes([0x81, n]) if n < 256 else bytes([0x82, n >> 8, n & 0xff]))
    return bytes([tag]) + ln + body
_HBS_OIDS = {'hss': bytes.fromhex('2a864886f70d0109100311'), 'xmss': bytes.fromhex('2b06010505070622'),
             'xmssmt': bytes.fromhex('2b06010505070623')}
def _hbs_seeds(kind, name, pk):
    spki = _der(0x30, _der(0x30, _der(0x06, _HBS_OIDS[kind])) + _der(0x03, b'\x00' + pk))
    put('hbs_forms', b'\x00' + spki, name + '.spki')
    alg = {'hss': 'HSS-LMS', 'xmss': 'XMSS', 'xmssmt': 'XMSSMT'}[kind]
    pub = base64.urlsafe_b64encode(pk).rstrip(b'=').decode()
    put('hbs_forms', b'\x02' + json.dumps({'kty': 'AKP', 'alg': alg, 'pub': pub}).encode(), name + '.jwk')
    if kind == 'hss':
        put('hbs_forms', b'\x01' + bytes.fromhex('a3010503382d20') + bytes([0x58, len(pk)]) + pk, name + '.cose')
    put('hbs_forms', bytes([{'hss': 3, 'xmss': 4, 'xmssmt': 5}[kind]]) + pk, name + '.raw')
for _target, _kind in (('lms_verify', 'hss'), ('xmss_verify', None)):
    _d = os.path.join(HERE, 'corpus', _target)
    for _f in sorted(os.listdir(_d)) if os.path.isdir(_d) else []:
        with open(os.path.join(_d, _f), 'rb') as _h:
            _b = _h.read()
        if len(_b) < 2:
            continue
        _pk = _b[2:2 + ((_b[0] << 8) | _b[1])]
        _hbs_seeds(_kind or ('xmssmt' if _f.startswith('XMSSMT') else 'xmss'), _f.rsplit('.', 1)[0], _pk)

# ---- hbs_lease_answer: the PostgreSQL lease store's answers in libpq's text form (values NUL-ended,
# 0xFF = NULL): the key's row as key_status() and lease() read it, a signer's last generation, the
# compare-and-set count, a server error line — the shapes a real store gives (tests/lms fleet).
def _pg(mode, rows, fields, *vals):
    return bytes([mode, rows, fields]) + b''.join((b'\xff' if v is None else v.encode()) + b'\0' for v in vals)
put('hbs_lease_answer', _pg(0, 1, 3, '0', '1024', '0'), 'lease-row-fresh')
put('hbs_lease_answer', _pg(0, 1, 3, '224', '1024', '7'), 'lease-row-used')
put('hbs_lease_answer', _pg(0, 0, 3), 'lease-row-unregistered')
put('hbs_lease_answer', _pg(1, 1, 4, '96', '1024', '3', '3'), 'status-row')
put('hbs_lease_answer', _pg(1, 1, 4, '1024', '1024', '9223372036854775806', '40'), 'status-row-exhausted')
put('hbs_lease_answer', _pg(2, 1, 1, None), 'max-generation-none')
put('hbs_lease_answer', _pg(2, 1, 1, '12'), 'max-generation')
put('hbs_lease_answer', b'\x031', 'cas-won')
put('hbs_lease_answer', b'\x030', 'cas-lost')
put('hbs_lease_answer', b'\x03ERROR:  could not serialize access due to read/write dependencies among transactions\n'
    b'DETAIL:  Reason code: Canceled on identification as a pivot, during write.\n', 'server-error')
put('hbs_lease_answer', b'\x0340001', 'sqlstate')

# ---- workload and key records (printed by the pqsig CLI)
def cli(*args):
    return subprocess.run([PQSIG, *args], check=True, capture_output=True).stdout
try:
    wl = cli('price', '--print-workload')
    put('workload', wl, 'default')
    with tempfile.TemporaryDirectory() as d:
        k1, k2 = os.path.join(d, 'a.jwk'), os.path.join(d, 'b.jwk')
        cli('keygen', '--alg', 'ed25519', '-o', k1)
        cli('keygen', '--alg', 'ml-dsa-44', '-o', k2)
        r1 = cli('key', 'record', '--key', k1, '--participant', 'bank-a', '--purpose', 'quote', '--not-before', '1767225600')
        put('key_record', r1, 'ed25519-gen0')
        put('key_record', cli('key', 'record', '--key', k2, '--participant', 'bank-b', '--purpose', 'settlement-instruction',
                              '--not-before', '1767225600'), 'ml-dsa-44-gen0')
except (OSError, subprocess.CalledProcessError) as e:
    print('pqsig CLI not usable (' + str(e) + '): workload / key_record seeds not regenerated', file=sys.stderr)

# ---- hbs_delegate: delegated HSS keys (hbs export-subtree), the binary encoding under the file's header
try:
    with tempfile.TemporaryDirectory() as d:
        for alg, rng, name in (('hss-sha256-m24-h5-w4-h5-w4', '1:2', 'sha256_m24_h5w4_h5w4_1_2.bin'),
                               ('hss-shake-m32-h5-w1-h5-w1', '30:32', 'shake_m32_h5w1_h5w1_30_32.bin')):
            k, o = os.path.join(d, name + '.hss'), os.path.join(d, name + '.del')
            cli('hbs', 'keygen', '--alg', alg, '-o', k, '--pub', k + '.pub')
            cli('hbs', 'export-subtree', '--key', k, '--subtrees', rng, '-o', o)
            with open(o) as f:
                t = f.read().split('\n', 1)[1].strip()
            put('hbs_delegate', base64.urlsafe_b64decode(t + '=' * (-len(t) % 4)), name)
except (OSError, subprocess.CalledProcessError) as e:
    print('pqsig CLI not usable (' + str(e) + '): hbs_delegate seeds not regenerated', file=sys.stderr)
# ---- cose_sign1: COSE_Sign1 with HSS-LMS (RFC 9052, RFC 8778) made by `pqsig hbs sign-cose`
# (byte 0: 1 raw key, 2 COSE_Key, each u16 length || key || message; 0 the draft example key)
def _u16(b):
    return bytes([len(b) >> 8, len(b) & 0xff]) + b
try:
    with tempfile.TemporaryDirectory() as d:
        key, pubf, pl = os.path.join(d, 'k.hss'), os.path.join(d, 'k.pub'), os.path.join(d, 'pl')
        with open(pl, 'wb') as f:
            f.write(b'This is the content.')
        cli('hbs', 'keygen', '--alg', 'lms-sha256-m32-h5-w8', '-o', key, '--pub', pubf)
        with open(pubf) as f:
            pk = bytes.fromhex(f.read().strip())
        ck = cli('hbs', 'export', '--pub', pubf, '--form', 'cose')
        m = cli('hbs', 'sign-cose', '--key', key, '-i', pl, '--kid', 'ItsBig')
        dm = cli('hbs', 'sign-cose', '--key', key, '-i', pl, '--detached', '--untagged')
        put('cose_sign1', b'\x01' + _u16(pk) + m, 'H5_W8_raw_key.cose')
        put('cose_sign1', b'\x02' + _u16(ck) + m, 'H5_W8_cose_key.cose')
        put('cose_sign1', b'\x01' + _u16(pk) + dm, 'H5_W8_detached.cose')
        # the draft-ietf-cose-hash-sig example's container shape, alg -46, no signature
        put('cose_sign1', b'\x00' + bytes.fromhex('d28444a101382da104464974734269675454686973206973207468652063'
                                                   '6f6e74656e742e40'), 'example_shape.cose')
except (OSError, subprocess.CalledProcessError) as e:
    print('pqsig CLI not usable (' + str(e) + '): cose_sign1 seeds not regenerated', file=sys.stderr)
print('corpus written under', os.path.join(HERE, 'corpus'))

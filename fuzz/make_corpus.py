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
print('corpus written under', os.path.join(HERE, 'corpus'))

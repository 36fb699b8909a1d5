#!/usr/bin/python3
"""Helpers of check.sh (Debian's python3: PIL, as piglit's replayer imports it).

  verdicts OUT       piglit's `replayer.py compare yaml` output -> "PATH VERDICT ACTUAL"
                     per trace (pass, fail, or crash when it could not be replayed)
  ours OUT           `gltrace check` stdout -> "PATH VERDICT" per trace
  junit FILE         a JUnit XML file -> "TESTS FAILURES SKIPPED CASES NFAIL NSKIP"
                     (attributes of the one testsuite, then what its testcases hold)
  md5 PNG            the checksum piglit computes of an image: MD5 of PIL's tobytes()
  list-yml SUMS DEV  piglit's list-form traces file for DEV from "PATH CHECKSUM" lines
"""
import hashlib
import re
import sys
import xml.etree.ElementTree as ET


def verdicts(path):
    actual = None
    lines = open(path, errors='replace').read().splitlines()
    for i, line in enumerate(lines):
        m = re.match(r'\s+actual: (\S+)', line)
        if m:
            actual = m.group(1)
        elif line.startswith('[check_image] Images match for:'):
            print(lines[i + 1].strip(), 'pass', actual)
        elif line.startswith('[check_image] Images differ for:'):
            print(lines[i + 1].strip(), 'fail', actual)
        else:
            m = re.match(r"\[check_image\] Trace (\S+) couldn't be replayed", line)
            if m:
                print(m.group(1), 'crash', 'error')


def ours(path):
    for line in open(path):
        m = re.match(r'(pass|fail|skip) (\S+?)(:|$)', line.rstrip('\n'))
        if m:
            print(m.group(2), m.group(1))


def junit(path):
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == 'testsuite' else root.findall('testsuite')
    if len(suites) != 1:
        sys.exit('%d testsuites' % len(suites))
    s = suites[0]
    cases = s.findall('testcase')
    nfail = sum(1 for c in cases if c.find('failure') is not None)
    nskip = sum(1 for c in cases if c.find('skipped') is not None)
    print(s.get('tests'), s.get('failures'), s.get('skipped'), len(cases), nfail, nskip)


def md5(path):
    from PIL import Image
    print(hashlib.md5(Image.open(path).tobytes()).hexdigest())


def list_yml(sums, device):
    print('traces:')
    for line in open(sums):
        p, c = line.split()
        print('  - path: %s\n    expectations:\n      - device: %s\n        checksum: "%s"'
              % (p, device, c))
        print('      - device: gl-other\n        checksum: "%s"' % ('0' * 32))


if __name__ == '__main__':
    cmd, args = sys.argv[1], sys.argv[2:]
    {'verdicts': verdicts, 'ours': ours, 'junit': junit, 'md5': md5,
     'list-yml': list_yml}[cmd](*args)

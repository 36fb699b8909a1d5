"""The harness of the view page tests (view_browser.py, view_long.py): `gltrace view`
run on a trace (Server), headless Chromium driven by Selenium (Page), the pass/fail
counts and the summary line they print (finish)."""

import os
import re
import select
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

try:
    from selenium import webdriver
    from selenium.common.exceptions import (StaleElementReferenceException, TimeoutException,
                                            WebDriverException)
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError as e:  # pragma: no cover - the .sh checks first
    print('view_browser: SKIP: Selenium is missing (%s): apt-get install python3-selenium' % e)
    sys.exit(77)


PASSED = 0
FAILED = []
VERBOSE = bool(os.environ.get('IT_VERBOSE'))


def ok(msg):
    global PASSED
    PASSED += 1
    if VERBOSE:
        print('PASS: ' + msg, flush=True)


def bad(msg):
    FAILED.append(msg)
    print('FAIL: ' + msg, flush=True)


def note(msg):
    print('    note: ' + msg, file=sys.stderr, flush=True)


def check(cond, msg, why=''):
    if cond:
        ok(msg)
    else:
        bad(msg + (': ' + why if why else ''))
    return cond


def http_get(url, timeout=30):
    """(status, content type, body bytes) of a GET, errors included."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.headers.get('Content-Type', ''), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get('Content-Type', ''), e.read()


def run(argv, timeout):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def dump_calls(gltrace, trace, first, last):
    """{no: (thread, text)} of `gltrace dump --thread-ids --calls=first-last`."""
    rc, out, err = run([gltrace, 'dump', '--color=never', '--thread-ids',
                        '--calls=%d-%d' % (first, last), trace], 60)
    if rc != 0:
        raise RuntimeError('gltrace dump exits %d: %s' % (rc, err.decode(errors='replace')[-300:]))
    calls, cur = {}, None
    for line in out.decode('utf-8', errors='replace').split('\n'):
        m = re.match(r'^(\d+) @(\d+) (.*)$', line)
        if m:
            cur = int(m.group(1))
            calls[cur] = [int(m.group(2)), m.group(3)]
        elif cur is not None and line and not line.startswith('//'):
            calls[cur][1] += '\n' + line
    # the blank line after a frame's swap is the dump's, not the call's
    return {k: (t, s.rstrip('\n')) for k, (t, s) in calls.items()}


class Server:
    def __init__(self, gltrace, trace, log):
        self.log = open(log, 'wb')
        self.p = subprocess.Popen([gltrace, 'view', '--listen', '127.0.0.1:0', trace],
                                  stdout=subprocess.PIPE, stderr=self.log)
        self.url = None
        line = b''
        end = time.time() + 120   # the index is built at start
        while time.time() < end and b'\n' not in line:
            r, _, _ = select.select([self.p.stdout], [], [], 0.5)
            if r:
                b = os.read(self.p.stdout.fileno(), 4096)
                if not b:
                    break
                line += b
            elif self.p.poll() is not None:
                break
        m = re.search(rb'(http://127\.0\.0\.1:\d+/[0-9a-f]{32}/)', line)
        if m:
            self.url = m.group(1).decode()

    def stop(self):
        if self.p.poll() is not None:
            return self.p.returncode, 'exited before the end'
        self.p.send_signal(signal.SIGINT)
        try:
            return self.p.wait(timeout=20), ''
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            return None, 'still running 20 s after SIGINT (killed)'


class Page:
    def __init__(self, artifacts):
        o = webdriver.ChromeOptions()
        for a in ('--headless=new', '--no-sandbox', '--disable-gpu', '--window-size=1600,1000',
                  '--disable-dev-shm-usage', '--no-first-run', '--hide-scrollbars'):
            o.add_argument(a)
        if os.path.exists('/usr/bin/chromium'):
            o.binary_location = '/usr/bin/chromium'
        o.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
        self.d = webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=o)
        self.d.set_page_load_timeout(60)
        self.d.set_script_timeout(60)
        self.artifacts = artifacts
        self.shots = []

    def click(self, css, tries=5):
        """clicks the element CSS finds (rows are made again as pages arrive: retried)"""
        for i in range(tries):
            try:
                self.d.find_element(By.CSS_SELECTOR, css).click()
                return
            except StaleElementReferenceException:
                if i == tries - 1:
                    raise
                time.sleep(0.2)

    def attr(self, css, name):
        return self.js("const e = document.querySelector(arguments[0]);"
                       "return e ? e.getAttribute(arguments[1]) : null", css, name)

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def wait(self, what, fn, timeout):
        """fn() until truthy; returns its value, None on timeout (reported by the caller)."""
        try:
            return WebDriverWait(self.d, timeout, poll_frequency=0.2).until(lambda d: fn())
        except TimeoutException:
            note('timed out after %d s waiting for %s' % (timeout, what))
            return None

    def wait_css(self, css, timeout, what=None):
        return self.wait(what or css, lambda: self.d.find_elements(By.CSS_SELECTOR, css), timeout)

    def shot(self, name):
        path = os.path.join(self.artifacts, name)
        self.d.save_screenshot(path)
        self.shots.append(path)
        return path

    def errors_shown(self):
        return [e.text for e in self.d.find_elements(By.CSS_SELECTOR, '#errors .error .msg')]

    def js_errors(self):
        try:
            logs = self.d.get_log('browser')
        except WebDriverException:
            return []
        # uncaught exceptions, and anything the page's Content-Security-Policy refused
        # (inline styles or handlers, eval)
        return [e['message'] for e in logs
                if e.get('level') == 'SEVERE' and ('Uncaught' in e.get('message', '') or
                                                   'Content Security Policy' in e.get('message', ''))]


def finish(t0, artifacts, shots=()):
    for s in shots:
        print('screenshot: ' + s)
    print('view_browser: screenshots and server log in ' + artifacts)
    if FAILED:
        print('---- view_browser failures:')
        for f in FAILED:
            print('  ' + f)
    print('view_browser: %d passed, %d failed (%.1f s)' % (PASSED, len(FAILED), time.time() - t0))
    return 1 if FAILED else 0


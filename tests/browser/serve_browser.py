#!/usr/bin/python3
"""attnmark serve in a real browser: headless Chromium driven by Selenium
(Debian's python3-selenium and chromium-driver).

A student chooses x-large text on the sign-in page, signs in, fills the
lesson worksheet with the hard-attention mistake (weights 1, 0, 0) and sees
it named in the summary that takes the focus, hears each box's name and
verdict, moves from box to box with Enter, finds every box and header whole
on a phone (390 x 844) at x-large and normal text, corrects the mistake and
gets full marks;
the teacher signs in with the printed address, downloads gradebook.csv and
finds the attempt.

    serve_browser.py ATTNMARK_BINARY SOURCE_DIR SCRATCH_DIR

Exit status 0 when all is as expected; 77 (skipped) when Selenium or the
driver is missing and CI is not set.
"""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

binary, source, scratch = sys.argv[1], sys.argv[2], sys.argv[3]

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    print("python3-selenium is missing: run scripts/setup --print", file=sys.stderr)
    sys.exit(1 if os.environ.get("CI") else 77)
driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
if not os.path.exists(driver_path):
    print("chromium-driver is missing: run scripts/setup --print", file=sys.stderr)
    sys.exit(1 if os.environ.get("CI") else 77)

work = tempfile.mkdtemp(prefix="serve-browser-", dir=scratch)
roster = os.path.join(work, "roster.csv")
with open(roster, "w") as f:
    f.write("student,name\ns001,Ada Lovelace\ns002,Alan Turing\n")
db = os.path.join(work, "class.sqlite")
out = open(os.path.join(work, "serve.out"), "w+")
server = subprocess.Popen([binary, "serve", "rubrics/lesson.yaml", "--seed", "2026", "--roster", roster, "--db", db,
                           "--port", "0"], cwd=source, stdout=out, stderr=subprocess.STDOUT)
driver = None


def fail(message):
    print("FAILED: " + message, file=sys.stderr)
    sys.exit(1)


try:
    students_url = teacher_url = None
    for _ in range(200):
        out.seek(0)
        text = out.read()
        m = re.search(r"students: (http://\S+/)\n\s+teacher:\s+(http://\S+)\n", text)
        if m:
            students_url, teacher_url = m.group(1), m.group(2)
            break
        if server.poll() is not None:
            fail("attnmark serve ended: " + text)
        time.sleep(0.05)
    if not students_url:
        fail("attnmark serve printed no addresses")
    codes = subprocess.run([binary, "access-codes", "--db", db], capture_output=True, text=True, check=True).stdout
    code = next(row[1] for row in csv.reader(io.StringIO(codes)) if row and row[0] == "s001")
    key = json.loads(subprocess.run([binary, "key", "rubrics/lesson.yaml", "--student", "s001", "--seed", "2026",
                                     "--format", "json"], cwd=source, capture_output=True, text=True,
                                    check=True).stdout)

    # The answers as a careful student types them: rounded as each part asks.
    fields = {}
    for q in key["questions"]:
        decimals = {a["part"]: a.get("decimals") for a in q["ask"]}
        for part, value in q["answers"].items():
            rows = value if isinstance(value, list) and value and isinstance(value[0], list) else [value]
            for r, row in enumerate(rows):
                cells = row if isinstance(row, list) else [row]
                for c, cell in enumerate(cells):
                    text = cell if isinstance(cell, str) else f"{cell:.{decimals[part] or 0}f}"
                    fields[f"{q['id']}.{part}.{r + 1}.{c + 1}"] = text

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--user-data-dir=" + os.path.join(work, "profile")]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(60)

    def submit(button):
        """Clicks a form's button and waits until the page it posts to is in.

        A click returns before the next page has loaded, and while the old
        document goes away Chromium may answer a question about it with any
        error (a stale element, or "Node with given id does not belong to the
        document"). So the old document is marked, and the wait is for a
        loaded document without the mark, with every driver error meaning
        "not yet"."""
        driver.execute_script("document.documentElement.setAttribute('data-left', '1')")
        button.click()

        def arrived(d):
            return d.execute_script("return document.readyState === 'complete' && "
                                    "!document.documentElement.hasAttribute('data-left')")
        WebDriverWait(driver, 60, ignored_exceptions=(WebDriverException,)).until(arrived)

    driver.set_window_size(1280, 900)
    driver.get(students_url)
    # The colours and text are chosen before signing in, and the chooser grows with the text.
    Select(driver.find_element(By.NAME, "text_size")).select_by_visible_text("x-large")
    submit(driver.find_element(By.CSS_SELECTOR, "form[action='/settings'] button"))
    if "text-x-large" not in driver.find_element(By.TAG_NAME, "body").get_attribute("class"):
        fail("the text size chosen on the sign-in page was not applied")
    sizes = driver.execute_script(
        "var s=document.querySelector('select[name=text_size]'), b=document.querySelector('main');"
        "return [getComputedStyle(s).fontSize, getComputedStyle(b).fontSize];")
    if sizes[0] != sizes[1]:
        fail("the chooser's text does not follow the page's: " + " vs ".join(sizes))
    driver.find_element(By.NAME, "student").send_keys("s001")
    driver.find_element(By.NAME, "code").send_keys(code)
    submit(driver.find_element(By.CSS_SELECTOR, "form[action='/signin'] button"))
    if "Signed in as" not in driver.page_source:
        fail("sign-in did not reach the worksheet")

    def fill(values):
        for name, text in values.items():
            box = driver.find_element(By.NAME, name)
            box.clear()
            box.send_keys(text)
        submit(driver.find_element(By.ID, "check"))
        WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".score-big"))

    mistaken = dict(fields)
    mistaken.update({"q1.weights.1.1": "1", "q1.weights.1.2": "0", "q1.weights.1.3": "0"})
    fill(mistaken)
    if "text-x-large" not in driver.find_element(By.TAG_NAME, "body").get_attribute("class"):
        fail("the text size chosen before signing in was not kept")

    # After Check the summary is at the top, in view, and has the focus.
    summary = driver.find_element(By.ID, "summary")
    if driver.switch_to.active_element != summary:
        fail("the focus is not on the summary after Check")
    top = driver.execute_script("return arguments[0].getBoundingClientRect().top", summary)
    if not 0 <= top < 300:
        fail(f"the summary is not at the top of the window: {top} px")
    if "Mistake" not in summary.text or "Attention takes a share of every token" not in summary.text:
        fail("the summary does not name the mistake: " + summary.text)
    if summary.get_attribute("role") != "status":
        fail("the summary is not a live region")

    # A screen reader hears each box in the lesson's words, with its verdict.
    box = driver.find_element(By.NAME, "q1.weights.1.1")
    name = box.accessible_name
    if not re.fullmatch(r"Question 1, weight, query \w+, key \w+, wrong", name):
        fail("the accessible name of q1.weights.1.1 is " + repr(name))
    if box.get_attribute("aria-invalid") != "true":
        fail("a wrong box is not aria-invalid")
    name = driver.find_element(By.NAME, "q1.scores.1.1").accessible_name
    if not re.fullmatch(r"Question 1, score, query \w+, key \w+, right", name):
        fail("the accessible name of a right box is " + repr(name))

    # Enter goes to the next box and never sends the form; from the last box, to Check.
    driver.execute_script("document.documentElement.setAttribute('data-stay', '1')")
    boxes = driver.find_elements(By.CSS_SELECTOR, "input.cell")
    boxes[0].click()
    boxes[0].send_keys(Keys.ENTER)
    if driver.switch_to.active_element != boxes[1]:
        fail("Enter did not move to the next box")
    boxes[-1].click()
    boxes[-1].send_keys(Keys.ENTER)
    if driver.switch_to.active_element != driver.find_element(By.ID, "check"):
        fail("Enter in the last box did not move to Check")
    if driver.execute_script("return document.documentElement.getAttribute('data-stay')") != "1":
        fail("Enter sent the form")

    page = driver.page_source
    if "Attention takes a share of every token" not in page or "Mistake:" not in page:
        fail("the hard-attention mistake was not named")
    if "Score: 14 / 16" not in page:
        fail("expected 14 / 16 with the mistake; page: " + driver.find_element(By.CSS_SELECTOR, ".score-big").text)
    # The answers stay in their boxes after the check.
    if driver.find_element(By.NAME, "q1.weights.1.1").get_attribute("value") != "1":
        fail("the answers were not kept")

    def fits(where):
        """Every box shows all it holds, headers stay on one line, and the page itself never scrolls sideways."""
        cut = driver.execute_script(
            "return Array.prototype.filter.call(document.querySelectorAll('input.cell'),"
            " function(b){return b.scrollWidth > b.clientWidth + 1;}).map(function(b){return b.name+'='+b.value;});")
        if cut:
            fail(where + ": boxes cut their text: " + ", ".join(cut))
        broken = driver.execute_script(
            "return Array.prototype.filter.call(document.querySelectorAll('.scroll th'), function(h){"
            " var r=document.createRange(); r.selectNodeContents(h);"
            " var tops={}; Array.prototype.forEach.call(r.getClientRects(), function(c){tops[Math.round(c.top)]=1;});"
            " return Object.keys(tops).length > 1;}).map(function(h){return h.textContent;});")
        if broken:
            fail(where + ": headers wrap: " + ", ".join(broken))
        if driver.execute_script("return document.documentElement.scrollWidth > window.innerWidth"):
            fail(where + ": the page scrolls sideways")

    # A phone, 390 × 844: at x-large and at normal text, q2's weights show every decimal.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
    driver.get(students_url)
    for name in ("q2.weights.1.1", "q2.weights.1.2"):
        box = driver.find_element(By.NAME, name)
        box.clear()
        box.send_keys("0.212")
    fits("390 px, x-large text")
    Select(driver.find_element(By.NAME, "text_size")).select_by_visible_text("normal")
    submit(driver.find_element(By.CSS_SELECTOR, "form[action='/settings'] button"))
    for name in ("q2.weights.1.1", "q2.weights.1.2"):
        box = driver.find_element(By.NAME, name)
        box.clear()
        box.send_keys("0.212")
    fits("390 px, normal text")
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.get(students_url)

    fill({k: fields[k] for k in ("q1.weights.1.1", "q1.weights.1.2", "q1.weights.1.3")})
    if "Score: 16 / 16" not in driver.page_source:
        fail("the corrected worksheet did not get full marks")

    # The teacher: the printed address, then the gradebook downloaded.
    downloads = os.path.join(work, "downloads")
    os.makedirs(downloads)
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    driver.get(teacher_url)
    WebDriverWait(driver, 60).until(lambda d: "attempts by" in d.page_source)
    if "2 attempts by 1 of 2 students" not in driver.page_source:
        fail("the teacher's page does not show the attempts")
    driver.find_element(By.LINK_TEXT, "gradebook.csv").click()
    path = os.path.join(downloads, "gradebook.csv")
    for _ in range(200):
        if os.path.exists(path):
            break
        time.sleep(0.05)
    if not os.path.exists(path):
        fail("gradebook.csv was not downloaded")
    rows = list(csv.reader(open(path, newline="", encoding="utf-8")))
    s001 = next(r for r in rows if r and r[0] == "s001")
    if s001[3] != "graded" or s001[4] != "16":
        fail("gradebook row for s001: " + ",".join(s001))
    print("serve in Chromium: chooser before sign-in, hard-attention named in a focused summary, boxes named and fitting "
          "a phone, Enter moving on, corrected to 16 / 16, gradebook downloaded")
finally:
    if driver:
        driver.quit()
    server.terminate()
    server.wait(timeout=30)

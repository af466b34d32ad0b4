"""The web home screen in a real browser: headless Chromium, driven through Selenium, against the real widget-host
and the real widget-scheduler under systemd (Tests/System/cases/60-web-host.sh sets them up and runs this file
through Tests/Browser/run.sh).

Every wait is for a condition in the DOM or in the daemon, never for a fixed time: the machine may be loaded. No test
may leave an error in the browser's console, save the ones it provokes on purpose and names."""
import json
import os
import subprocess
import time
import unittest
from urllib.parse import unquote

from selenium import webdriver
from selenium.common.exceptions import (ElementClickInterceptedException, ElementNotInteractableException,
                                        NoSuchElementException, StaleElementReferenceException, TimeoutException)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

BASE_URL = os.environ.get("HOST_URL", "http://127.0.0.1:8470")
# A second host whose user the daemon grants nothing beyond reading (60-web-host.sh starts it): its refusals.
STRANGER_URL = os.environ.get("STRANGER_HOST_URL")
# The checkout these tests run from: the photo example's app and pictures are taken from it.
REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARTIFACTS = os.environ.get("BROWSER_ARTIFACTS", "/tmp/widget-host-browser")
# Generous: a wait ends as soon as its condition holds, and a loaded 2-core machine can be slow.
TIMEOUT = float(os.environ.get("BROWSER_TIMEOUT", "120"))
# What a live update may do to an element between finding it and using it: replace it (a slot's redraw puts new
# markup in place), or have it not yet ready for a pointer or the keyboard (drawn but hidden, or covered).
PASSING = (StaleElementReferenceException, NoSuchElementException, ElementNotInteractableException,
           ElementClickInterceptedException)


def widgetctl(*arguments):
    """Runs widgetctl and returns its parsed JSON output (with --json) or its text."""
    completed = subprocess.run(["widgetctl", *arguments], check=True, capture_output=True, text=True)
    return json.loads(completed.stdout) if "--json" in arguments else completed.stdout


def systemctl(*arguments):
    subprocess.run(["systemctl", *arguments], check=True)


def widgets_by_id():
    return {widget["id"]: widget for widget in widgetctl("list", "--json")}


class HomeScreenTests(unittest.TestCase):
    driver = None

    @classmethod
    def setUpClass(cls):
        os.makedirs(ARTIFACTS, exist_ok=True)
        options = webdriver.ChromeOptions()
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         "--window-size=1280,1000", "--lang=en-US", "--no-first-run", "--disable-extensions"]:
            options.add_argument(argument)
        options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
        cls.driver = webdriver.Chrome(service=service, options=options)
        cls.driver.set_page_load_timeout(TIMEOUT)

    @classmethod
    def tearDownClass(cls):
        if cls.driver is not None:
            cls.driver.quit()

    def setUp(self):
        # Console messages a test provokes on purpose: substrings of the messages it expects.
        self.expected_console_errors = []
        self.open_home()

    def tearDown(self):
        errors = [entry["message"] for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]
        unexpected = [message for message in errors
                      if not any(expected in message for expected in self.expected_console_errors)]
        if unexpected:
            self.driver.save_screenshot(os.path.join(ARTIFACTS, "failed-%s.png" % self._testMethodName))
        self.assertEqual(unexpected, [], "errors in the browser's console")

    # ---- Helpers ----------------------------------------------------------------------------------------------

    def wait(self, condition, message, timeout=TIMEOUT):
        """Waits for `condition` to return something true, trying again when a live update replaced or hid what it
        used meanwhile; on a timeout, says what the last attempt met."""
        last = []
        def attempt(driver):
            try:
                result = condition(driver)
            except PASSING as error:
                last[:] = ["%s: %s" % (type(error).__name__, str(error.msg or "").split("\n")[0])]
                return False
            last[:] = ["%r" % (result,)]
            return result
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.1, ignored_exceptions=()).until(attempt)
        except TimeoutException:
            seen = last[0] if last else "nothing"
            self.fail("timed out after %g s waiting for %s; last seen: %s" % (timeout, message, seen))

    def retry(self, action, what):
        """Runs an action on elements, again when a live update replaced them meanwhile (ticker widgets change every
        two seconds, and each change redraws their slot) or they are not yet ready for it."""
        return self.wait(lambda d: action() or True, what)

    def click_in_card(self, widget, selector, what):
        """Clicks the element `selector` of the widget's card, found afresh at each try, once it is displayed and
        enabled: a redraw of the slot between finding and clicking replaces it."""
        def click():
            element = self.card(widget).find_element(By.CSS_SELECTOR, selector)
            if not (element.is_displayed() and element.is_enabled()):
                return False
            element.click()
            return True
        self.wait(lambda d: click(), what)

    def choose(self, widget, action, value):
        """Picks `value` in the card's select[data-action=action] in one step, as a person does: ticker cards are
        redrawn every two seconds, which the several round trips of Selenium's Select may straddle on a loaded
        machine. A pointerdown opens the select first, as a person's press does: "Stack with" fills its menu then."""
        script = """
            const card = document.querySelector('.widget[data-widget="' + arguments[0] + '"]');
            const select = card && card.querySelector('select[data-action="' + arguments[1] + '"]');
            if (select) select.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true }));
            if (!select || !Array.from(select.options).some(o => o.value === arguments[2])) return false;
            select.value = arguments[2];
            select.dispatchEvent(new Event("change", { bubbles: true }));
            return true;
        """
        self.wait(lambda d: d.execute_script(script, widget, action, value), "choosing %s for %s" % (value, widget))

    def open_home(self):
        self.driver.get(BASE_URL + "/")
        # The page script has run and the event stream is open once the host sent the grid again.
        self.wait(lambda d: d.execute_script("return document.readyState") == "complete", "the page to load")

    def card(self, widget):
        return self.driver.find_element(By.CSS_SELECTOR, '.widget[data-widget="%s"]' % widget)

    def card_text(self, widget):
        return self.driver.execute_script(
            'const c = document.querySelector(\'.widget[data-widget="\' + arguments[0] + \'"] .face\');'
            "return c ? c.textContent : null;", widget)

    def wait_for_card(self, widget):
        return self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, '.widget[data-widget="%s"]' % widget),
                         "the card of %s" % widget)[0]

    def slot_of(self, widget):
        return self.card(widget).find_element(By.XPATH, "./ancestor::section[contains(@class,'slot')]")

    def family_of_slot(self, widget):
        """The family of the slot that holds the widget's card now (None without a card), in one query."""
        return self.driver.execute_script(
            "const c = document.querySelector('.widget[data-widget=\"' + arguments[0] + '\"]');"
            "const s = c && c.closest('.slot'); return s ? s.dataset.family : null;", widget)

    def shown_in(self, slot):
        """The widgets a slot shows now."""
        return self.driver.execute_script(
            "return Array.from(document.querySelectorAll('#slot-' + arguments[0] + ' > .widget'))"
            ".filter(c => !c.hidden).map(c => c.dataset.widget)", slot)

    def slot_ids(self):
        return self.driver.execute_script(
            "return Array.from(document.querySelectorAll('#grid > .slot')).map(s => s.dataset.slot)")

    def set_editing(self, editing):
        toggle = self.driver.find_element(By.ID, "edit-toggle")
        if (toggle.get_attribute("aria-pressed") == "true") != editing:
            toggle.click()
        self.wait(lambda d: ("editing" in d.find_element(By.TAG_NAME, "body").get_attribute("class").split())
                  == editing, "edit mode %s" % editing)

    def add_ticker(self, label, score=0, family="systemSmall"):
        output = widgetctl("add", "--kind", "ticker", "--family", family, "--param", "label=%s" % label,
                           "--param", "score=%d" % score, "--json")
        return output["id"]

    def wait_for_ticker_text(self, widget, label):
        return self.wait(lambda d: (self.card_text(widget) or "").find("%s " % label) >= 0,
                         "%s to show its ticker entries" % widget)

    # ---- §4: what the issue asks to see in a real browser -----------------------------------------------------

    def test_1_the_example_widgets_render_their_current_entries(self):
        widgets = widgets_by_id()
        examples = [widget for widget in widgets.values() if widget["kind"] in ("weather", "quote", "system")]
        self.assertGreaterEqual(len(examples), 3, "the case adds the example widgets first")
        for widget in examples:
            self.wait_for_card(widget["id"])
            self.wait(lambda d, w=widget["id"]: widgets_by_id()[w]["currentEntry"] is not None,
                      "%s's first timeline" % widget["id"])
        self.open_home()
        for widget in examples:
            entry = widgets_by_id()[widget["id"]]["currentEntry"]
            content = entry["content"]
            scalars = [str(value) for value in content.values() if isinstance(value, (str, int, float))
                       and not isinstance(value, bool)]
            face = self.wait(lambda d, w=widget["id"]: self.card_text(w), "the face of %s" % widget["id"])
            self.assertTrue(any(value in face for value in scalars),
                            "%s shows none of %s: %r" % (widget["id"], scalars, face))
            classes = self.wait(lambda d, w=widget["id"]: self.card(w).get_attribute("class"),
                                "the classes of %s" % widget["id"])
            self.assertNotIn("placeholder", classes)

    def test_2_an_entry_change_appears_at_its_date(self):
        widget = self.add_ticker("arrival")
        self.wait_for_card(widget)
        self.wait_for_ticker_text(widget, "arrival")
        # Stamp each change of the face's text with the page's clock.
        self.driver.execute_script("""
            window.__changes = [];
            const observe = () => {
                const face = document.querySelector('.widget[data-widget="' + arguments[0] + '"] .face');
                return face ? face.textContent : null;
            };
            let last = observe();
            new MutationObserver(() => {
                const now = observe();
                if (now !== null && now !== last) {
                    last = now;
                    window.__changes.push({ text: now, at: performance.timeOrigin + performance.now() });
                }
            }).observe(document.getElementById('grid'), { subtree: true, childList: true, characterData: true });
        """, widget)
        changes = self.wait(lambda d: d.execute_script("return window.__changes.length >= 2 && window.__changes"),
                            "two entry changes of %s" % widget)
        entries = widgetctl("timeline", widget, "--json")["entries"]
        timeline = {entry["content"]["text"]: entry["date"] for entry in entries}
        for change in changes:
            text = next((key for key in timeline if key in change["text"]), None)
            self.assertIsNotNone(text, "a change to text no entry has: %r" % change["text"])
            due = self.driver.execute_script("return Date.parse(arguments[0])", timeline[text])
            lateness = (change["at"] - due) / 1000
            # Never before its date; after it by as much as a loaded machine takes.
            self.assertGreaterEqual(lateness, -0.05, "%s appeared %.3f s before its date" % (text, -lateness))
            self.assertLess(lateness, 10, "%s appeared %.3f s after its date" % (text, lateness))

    def test_3_the_gallery_adds_with_the_providers_defaults_and_the_form_configures_by_search(self):
        # The app's last location is the provider's default (seed 000): the new widget shows it at once.
        widgetctl("data", "set", "weather", "location", "Lisbon")
        before = set(widgets_by_id())
        self.driver.find_element(By.ID, "open-gallery").click()
        kind = self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, '#gallery .kind[data-kind="weather"]'),
                         "the gallery's weather kind")[0]
        self.assertIn("Weather", kind.text)
        self.assertIn("Current conditions", kind.text)
        # A preview per family, drawn from the provider's snapshot answer. The page loads them a few at a time, so
        # a count of faces passes through every value on its way: wait for the end (no preview still loading),
        # then count. A count met only on the way may last a few milliseconds, less than a poll.
        families = next(k["families"] for k in widgetctl("kinds", "--json") if k["kind"] == "weather")
        self.wait(lambda d: not kind.find_elements(By.CSS_SELECTOR, ".preview[aria-busy]"), "the weather previews")
        errors = [e.text for e in kind.find_elements(By.CSS_SELECTOR, ".preview-error")]
        self.assertEqual(len(kind.find_elements(By.CSS_SELECTOR, ".preview .widget:not(.placeholder) .face")),
                         len(families),
                         "a preview for each of %s; refusals: %s" % (families, errors))
        self.assertIn("Lisbon", kind.find_element(By.CSS_SELECTOR, ".preview .face").text)
        kind.find_element(By.CSS_SELECTOR, 'button[data-add-family="systemSmall"]').click()
        self.wait(lambda d: not d.find_element(By.ID, "gallery").get_attribute("open"), "the gallery to close")
        added = self.wait(lambda d: set(widgets_by_id()) - before, "the new widget")
        widget = added.pop()
        self.assertEqual(widgets_by_id()[widget]["configuration"]["location"], "Lisbon")
        self.wait_for_card(widget)
        self.wait(lambda d: "Lisbon" in (self.card_text(widget) or ""), "the new widget's first entry")

        # Configure it through a dynamic option found by search.
        self.set_editing(True)
        self.click_in_card(widget, 'button[data-action="configure"]', "a click on Edit widget")
        field = self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, '#configure .field[data-param="location"]'),
                          "the configuration form")[0]
        search = field.find_element(By.CSS_SELECTOR, ".option-search")
        search.send_keys("par")
        self.wait(lambda d: [b.text for b in field.find_elements(By.CSS_SELECTOR, ".options button")]
                  == ["Paris", "Parma"], "the provider's options for 'par'")
        field.find_element(By.XPATH, ".//button[text()='Paris']").click()
        self.assertEqual(field.find_element(By.CSS_SELECTOR, 'input[name="location"]').get_attribute("value"), "Paris")
        self.driver.find_element(By.CSS_SELECTOR, "#configure button[type=submit]").click()
        self.wait(lambda d: not d.find_element(By.ID, "configure").get_attribute("open"), "the form to close")
        self.wait(lambda d: "Paris" in (self.card_text(widget) or ""), "the configuration run's entry")
        self.assertEqual(widgets_by_id()[widget]["configuration"]["location"], "Paris")

        # A value the daemon refuses is shown next to its field, in the daemon's words.
        self.expected_console_errors.append("status of 422")
        self.click_in_card(widget, 'button[data-action="configure"]', "a click on Edit widget")
        hours = self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, '#configure input[name="max-age"]'),
                          "the form again")[0]
        hours.clear()
        # The number field takes 2.5; the daemon wants a whole number of hours.
        hours.send_keys("2.5")
        self.driver.find_element(By.CSS_SELECTOR, "#configure button[type=submit]").click()
        error = self.wait(lambda d: [e for e in d.find_elements(
            By.CSS_SELECTOR, '#configure .field[data-param="max-age"] .field-error') if e.is_displayed()],
            "the refusal beside max-age")[0]
        self.assertIn("max-age", error.text)
        self.driver.find_element(By.CSS_SELECTOR, "#configure [data-close]").click()
        self.set_editing(False)

    def test_3b_a_kind_without_snapshots_previews_its_placeholder_and_says_why(self):
        self.driver.find_element(By.ID, "open-gallery").click()
        kind = self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, '#gallery .kind[data-kind="trivial"]'),
                         "the gallery's trivial kind")[0]
        self.wait(lambda d: not kind.find_elements(By.CSS_SELECTOR, ".preview[aria-busy]"), "the trivial previews")
        previews = kind.find_elements(By.CSS_SELECTOR, ".preview")
        families = next(k["families"] for k in widgetctl("kinds", "--json") if k["kind"] == "trivial")
        self.assertEqual(len(previews), len(families), "a preview cell for each of %s" % families)
        for preview in previews:
            # The shape of the widget, drawn without a run, and the daemon's words for the refused snapshot.
            self.assertEqual(len(preview.find_elements(By.CSS_SELECTOR, ".widget.placeholder .face")), 1,
                             preview.get_attribute("innerHTML"))
            error = preview.find_element(By.CSS_SELECTOR, ".preview-error").text
            self.assertIn('provider of kind "trivial" failed', error)
        ActionChains(self.driver).send_keys(Keys.ESCAPE).perform()
        self.wait(lambda d: not d.find_element(By.ID, "gallery").get_attribute("open"), "Escape to close the gallery")

    def test_4_a_stack_shows_the_daemons_order_flips_and_pins(self):
        widgets = [self.add_ticker("low", 1), self.add_ticker("high", 9), self.add_ticker("mid", 5)]
        for widget in widgets:
            self.wait_for_card(widget)
            self.wait(lambda d, w=widget: widgets_by_id()[w]["currentEntry"] is not None, "%s's timeline" % widget)
        self.set_editing(True)
        target = self.wait(lambda d: self.slot_of(widgets[0]).get_attribute("data-slot"), "the first one's slot")
        # "Stack with" offers every other slot of the card's size, each named by its widgets' kinds, and no other.
        offered, expected = self.driver.execute_script("""
            const card = document.querySelector('.widget[data-widget="' + arguments[0] + '"]');
            const select = card.querySelector('select[data-action="stack"]');
            select.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true }));
            const own = card.closest(".slot");
            const expected = Array.from(document.querySelectorAll("#grid > .slot"))
                .filter(s => s !== own && s.dataset.family === own.dataset.family)
                .map(s => s.dataset.slot);
            return [Array.from(select.options).filter(o => o.value).map(o => [o.value, o.textContent]), expected];
        """, widgets[1])
        self.assertEqual(sorted(value for value, _ in offered), sorted(expected), "the places Stack with offers")
        self.assertIn([target, "Ticker"], offered, "the first ticker's slot, named by its kind")
        for widget in widgets[1:]:
            self.choose(widget, "stack", target)
            self.wait(lambda d, w=widget: self.slot_of(w).get_attribute("data-slot") == target,
                      "%s to join the stack" % widget)
        self.set_editing(False)
        daemon_order = [item["widget"] for item in widgetctl("stack", *widgets, "--json")]
        self.assertEqual(daemon_order, [widgets[1], widgets[2], widgets[0]], "scores 9, 5, 1")
        self.wait(lambda d: d.find_element(By.ID, "slot-" + target).get_attribute("data-order").split()
                  == daemon_order, "the stack in the daemon's order")
        self.wait(lambda d: self.shown_in(target) == [daemon_order[0]], "the most relevant on top")
        for expected in daemon_order[1:] + daemon_order[:1]:
            self.retry(lambda: self.driver.find_element(By.ID, "slot-" + target).find_element(
                By.CSS_SELECTOR, '.flip[data-flip="1"]').click(), "a flip")
            self.wait(lambda d, e=expected: self.shown_in(target) == [e], "flipping to %s" % expected)
        # Pinning the least relevant puts it on top, for good.
        self.retry(lambda: self.driver.find_element(By.ID, "slot-" + target).find_element(
            By.CSS_SELECTOR, '.flip[data-flip="-1"]').click(), "a flip back")
        self.set_editing(True)
        pinned = daemon_order[-1]
        self.wait(lambda d: self.card(pinned).is_displayed(), "the least relevant shown")
        self.retry(lambda: self.card(pinned).find_element(By.CSS_SELECTOR, 'button[data-action="pin"]').click(),
                   "a click on Pin on top")
        self.wait(lambda d: d.find_element(By.ID, "slot-" + target).get_attribute("data-order").split()[0] == pinned,
                  "the pinned widget on top")
        self.set_editing(False)

    def test_4b_a_stack_turns_over_when_relevance_changes(self):
        steady = self.add_ticker("steady", 5)
        swinging = widgetctl("add", "--kind", "ticker", "--param", "label=swinging", "--param", "score=9",
                             "--param", "swing=true", "--json")["id"]
        for widget in (steady, swinging):
            self.wait_for_card(widget)
            self.wait(lambda d, w=widget: widgets_by_id()[w]["currentEntry"] is not None, "%s's timeline" % widget)
        self.set_editing(True)
        target = self.wait(lambda d: self.slot_of(steady).get_attribute("data-slot"), "the steady one's slot")
        self.choose(swinging, "stack", target)
        self.wait(lambda d: self.slot_of(swinging).get_attribute("data-slot") == target, "the stack")
        self.set_editing(False)
        # Nobody touches the stack: its top follows the swinging relevance (9, then 1 against 5), both ways.
        seen = set()
        def turned(_):
            shown = self.shown_in(target)
            if len(shown) == 1:
                seen.add(shown[0])
            return seen == {steady, swinging}
        self.wait(turned, "the stack's top to follow the relevance both ways")

    def test_5_a_tap_opens_the_widgets_url(self):
        widget = self.add_ticker("tap")
        self.wait_for_card(widget)
        url = self.wait(lambda d: self.card(widget).get_attribute("data-url"), "the widget's URL")
        self.assertEqual(url, "http://127.0.0.1:8470/?tapped=tap")
        home = self.driver.current_window_handle
        windows = set(self.driver.window_handles)
        self.retry(lambda: self.card(widget).click(), "a tap")
        opened = self.wait(lambda d: set(d.window_handles) - windows, "a new tab")
        self.driver.switch_to.window(opened.pop())
        try:
            self.wait(lambda d: d.current_url == url, "the new tab at the widget's URL")
        finally:
            self.driver.close()
            self.driver.switch_to.window(home)

    def test_6_arranging_is_saved_across_restarts_of_the_host(self):
        self.set_editing(True)
        slots = self.slot_ids()
        self.assertGreaterEqual(len(slots), 3)
        self.retry(lambda: self.driver.find_element(By.ID, "slot-" + slots[0]).find_element(
            By.CSS_SELECTOR, '.widget.shown button[data-action="move"][data-delta="1"]').click(), "a click on →")
        moved = [slots[1], slots[0]] + slots[2:]
        self.wait(lambda d: self.slot_ids() == moved, "the first place moved one later")
        # Drag the last place onto the first (pointer events, as a finger or a mouse).
        def drag():
            last = self.driver.find_element(By.ID, "slot-" + moved[-1])
            first = self.driver.find_element(By.ID, "slot-" + moved[0])
            start = last.location
            end = first.location
            size = first.size
            # By coordinates: the slots may be redrawn while the pointer moves.
            actions = ActionChains(self.driver)
            actions.w3c_actions.pointer_action.move_to_location(start["x"] + 20, start["y"] + 20)
            actions.w3c_actions.pointer_action.pointer_down()
            actions.w3c_actions.pointer_action.move_to_location(start["x"] + 40, start["y"] + 40)
            actions.w3c_actions.pointer_action.move_to_location(end["x"] + 10, end["y"] + size["height"] // 2)
            actions.w3c_actions.pointer_action.pointer_up()
            actions.perform()
        self.retry(drag, "a drag of the last place to the first")
        dragged = [moved[-1]] + moved[:-1]
        self.wait(lambda d: self.slot_ids() == dragged, "the dragged place first")
        self.set_editing(False)
        self.expected_console_errors.append("/events")
        systemctl("restart", "widget-host.service")
        self.open_home()
        self.wait(lambda d: self.slot_ids() == dragged, "the layout after a restart of the host")

    def test_7_a_stopped_daemon_shows_a_banner_and_the_page_recovers_by_itself(self):
        widget = self.add_ticker("outage")
        self.wait_for_card(widget)
        self.wait_for_ticker_text(widget, "outage")
        systemctl("stop", "widget-scheduler.socket", "widget-scheduler.service")
        try:
            banner = self.wait(lambda d: d.find_element(By.ID, "banner").is_displayed()
                               and d.find_element(By.ID, "banner"), "the daemon-down banner")
            self.assertIn("not running", banner.text)
            # The last entries stay on screen.
            self.assertIn("outage", self.card_text(widget))
            self.driver.save_screenshot(os.path.join(ARTIFACTS, "daemon-down.png"))
        finally:
            # Socket activation: the host's next connection starts the daemon again.
            systemctl("start", "widget-scheduler.socket")
        self.wait(lambda d: not d.find_element(By.ID, "banner").is_displayed(), "the banner to go")
        before = self.card_text(widget)
        self.wait(lambda d: self.card_text(widget) != before, "entries changing again after the outage")

    def test_8_screenshots_in_both_color_schemes(self):
        backgrounds = {}
        for scheme in ("light", "dark"):
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
                "features": [{"name": "prefers-color-scheme", "value": scheme}]})
            self.open_home()
            self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#grid .slot"), "the grid")
            backgrounds[scheme] = self.driver.execute_script(
                "return [getComputedStyle(document.body).backgroundColor, "
                "getComputedStyle(document.querySelector('#grid .wv:not(.wv-bg)')).backgroundColor]")
            path = os.path.join(ARTIFACTS, "home-%s.png" % scheme)
            self.driver.save_screenshot(path)
            self.assertGreater(os.path.getsize(path), 10000, path)
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        self.assertNotEqual(backgrounds["light"][0], backgrounds["dark"][0], "the dark scheme changes the page")
        self.assertNotEqual(backgrounds["light"][1], backgrounds["dark"][1], "and the widgets drawn by their views")

    # ---- What a person sees and does besides (issue 32 §2, §3) --------------------------------------------------

    def test_9a_before_the_first_timeline_the_placeholder_shows(self):
        # The first timeline waits for the test's word, so the placeholder shows for as long as the test looks.
        release = "release-%d" % time.monotonic_ns()
        widget = widgetctl("add", "--kind", "ticker", "--param", "label=late", "--param", "hold=" + release,
                           "--json")["id"]
        self.open_home()
        self.wait_for_card(widget)
        self.wait(lambda d: "placeholder" in self.card(widget).get_attribute("class").split()
                  and self.card(widget).find_elements(By.CSS_SELECTOR, ".face .wv-placeholder"),
                  "the view's placeholder form")
        self.assertNotIn("late", self.card_text(widget), "a placeholder shows bars, not the content")
        self.assertIsNone(widgets_by_id()[widget]["currentEntry"])
        widgetctl("data", "set", "ticker", release, "yes")
        self.wait(lambda d: "late " in (self.card_text(widget) or ""), "the first timeline's entry")
        self.wait(lambda d: not self.card(widget).find_elements(By.CSS_SELECTOR, ".face .wv-placeholder"),
                  "the placeholder form gone")

    def test_9b_a_clock_ticks_in_the_page_without_new_entries(self):
        kinds = [kind["kind"] for kind in widgetctl("kinds", "--json")]
        self.assertIn("clock", kinds, "the example clock is installed")
        widget = widgetctl("add", "--kind", "clock", "--json")["id"]
        self.wait(lambda d: widgets_by_id()[widget]["currentEntry"] is not None, "the clock's first timeline")
        self.open_home()
        self.wait_for_card(widget)
        # One <time> element changes its text each second: the page's script, not a redraw by the host. The host
        # may still redraw the card (its next entry, or a grid sent after the page loaded), which puts a new element
        # in place: each element's texts are kept apart, and the wait ends when any one of them ticked twice.
        self.driver.execute_script("""
            const widget = arguments[0], texts = new Map();
            window.__ticked = null;
            const record = () => {
                const time = document.querySelector('.widget[data-widget="' + widget + '"] time[data-seconds]');
                if (!time) return;
                const seen = texts.get(time) || [];
                if (seen[seen.length - 1] !== time.textContent) seen.push(time.textContent);
                texts.set(time, seen);
                if (seen.length >= 3 && !window.__ticked) window.__ticked = seen.slice();
            };
            record();
            new MutationObserver(record).observe(document.getElementById('grid'),
                { childList: true, characterData: true, subtree: true });
        """, widget)
        texts = self.wait(lambda d: d.execute_script("return window.__ticked"),
                          "the clock's seconds to tick twice in the same element")
        for text in texts:
            self.assertRegex(text, r"^\d\d:\d\d:\d\d$")
        self.assertEqual(len(set(texts)), len(texts))

    def test_9c_the_back_side_shows_the_budget_and_a_reload_says_its_decision(self):
        widget = self.add_ticker("inspect")
        self.wait_for_card(widget)
        self.wait(lambda d: widgets_by_id()[widget]["currentEntry"] is not None, "%s's timeline" % widget)
        self.retry(lambda: self.card(widget).find_element(By.CSS_SELECTOR, 'button[data-action="inspect"]').click(),
                   "a click on the i button")
        back = self.wait(lambda d: [b for b in d.find_elements(
            By.CSS_SELECTOR, '.widget[data-widget="%s"] .back' % widget) if b.is_displayed()],
            "the back side")[0]
        for term in ("State", "Last run", "Next reload", "Budget", "Runs in 24 h"):
            self.assertIn(term, back.text)
        self.click_in_card(widget, '.back button[data-action="reload"]', "a click on Reload")
        decision = self.wait(lambda d: (lambda t: t if t and t != "Asking the scheduler…" else None)(
            self.card(widget).find_element(By.CSS_SELECTOR, ".back .decision").text), "the reload's decision")
        # The daemon's answer in words; under the case's 300 s floor, right after the first run, a deferral.
        self.assertRegex(decision, r"^(Ran at |Joined the run already planned for |Deferred until )")
        self.assertEqual(self.wait(lambda d: self.card(widget).find_element(
            By.CSS_SELECTOR, ".back .decision").get_attribute("class"), "the decision's class"), "decision",
            "not an error")
        self.click_in_card(widget, 'button[data-action="flip-back"]', "a click on Done")

    @unittest.skipUnless(STRANGER_URL, "needs STRANGER_HOST_URL, a host the daemon refuses (60-web-host.sh)")
    def test_9c2_a_refusal_of_the_daemon_is_shown_in_its_words(self):
        widget = self.add_ticker("refused")
        self.wait(lambda d: widgets_by_id()[widget]["currentEntry"] is not None, "%s's timeline" % widget)
        self.expected_console_errors.append("status of 403")
        self.driver.get(STRANGER_URL + "/")
        self.wait_for_card(widget)
        self.retry(lambda: self.card(widget).find_element(By.CSS_SELECTOR, 'button[data-action="inspect"]').click(),
                   "a click on the i button")
        self.wait(lambda d: [b for b in d.find_elements(By.CSS_SELECTOR, '.widget[data-widget="%s"] .back' % widget)
                             if b.is_displayed()], "the back side")
        self.click_in_card(widget, '.back button[data-action="reload"]', "a click on Reload")
        decision = self.wait(lambda d: (lambda t: t if t and t != "Asking the scheduler…" else None)(
            self.card(widget).find_element(By.CSS_SELECTOR, ".back .decision").text), "the reload's answer")
        self.assertRegex(decision, r"^The daemon refused: permission denied: Reload needs root, .*; uid \d+ has none")
        self.assertIn("error-text", self.card(widget).find_element(
            By.CSS_SELECTOR, ".back .decision").get_attribute("class").split())
        self.click_in_card(widget, 'button[data-action="flip-back"]', "a click on Done")
        # A change the daemon refuses leaves the widget where it was, and says why on its card.
        self.set_editing(True)
        self.click_in_card(widget, 'button[data-action="remove"]', "a click on Remove")
        error = self.wait(lambda d: self.card(widget).find_element(By.CSS_SELECTOR, "p.error").text,
                          "the refusal on the card")
        self.assertRegex(error, r"^The daemon refused: permission denied: Remove needs ")
        self.assertIn(widget, widgets_by_id(), "the widget is still there")
        self.set_editing(False)

    def test_9c3_nothing_a_view_draws_spills_past_its_card(self):
        # One-line texts (lineLimit 1) far wider than the card, in a stack whose width nothing else sets: they end in
        # an ellipsis inside the card, and the medium face's link keeps its place.
        label = "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch " * 2
        small, medium = self.add_ticker(label.strip()), self.add_ticker(label.strip(), family="systemMedium")
        for widget in (small, medium):
            self.wait_for_card(widget)
            self.wait(lambda d, w=widget: widgets_by_id()[w]["currentEntry"] is not None, "%s's timeline" % widget)
        self.open_home()
        for widget in (small, medium):
            self.wait(lambda d, w=widget: "placeholder" not in self.card(w).get_attribute("class").split(),
                      "%s drawn with its entry" % widget)
        outside = self.driver.execute_script("""
            const outside = [];
            for (const card of document.querySelectorAll('#grid .widget:not([hidden])')) {
                const box = card.getBoundingClientRect();
                for (const element of card.querySelectorAll('.face .wv-text, .face .wv-v, .face .wv-h, .face a')) {
                    const drawn = element.getBoundingClientRect();
                    if (drawn.width === 0) continue;
                    if (drawn.left < box.left - 1 || drawn.right > box.right + 1) {
                        outside.push(card.dataset.widget + ' ' + element.className + ' from ' +
                                     Math.round(drawn.left - box.left) + ' to ' + Math.round(drawn.right - box.left) +
                                     ' of ' + Math.round(box.width));
                    }
                }
            }
            return outside;
        """)
        self.assertEqual(outside, [], "elements of faces past their cards' edges")
        link = self.card(medium).find_element(By.CSS_SELECTOR, ".face a.wv-link")
        self.assertTrue(link.is_displayed(), "the medium face's link")
        for widget in (small, medium):
            widgetctl("remove", widget)

    def test_9d_resize_opens_a_link_and_remove(self):
        widget = self.add_ticker("sized")
        self.wait_for_card(widget)
        self.wait_for_ticker_text(widget, "sized")
        self.set_editing(True)
        before = set(widgets_by_id())
        self.choose(widget, "resize", "systemMedium")
        replacement = self.wait(lambda d: set(widgets_by_id()) - before, "the medium widget")
        medium = replacement.pop()
        listed = widgets_by_id()
        self.assertNotIn(widget, listed, "the small one is gone")
        self.assertEqual(listed[medium]["family"], "systemMedium")
        self.assertEqual(listed[medium]["configuration"]["label"], "sized")
        self.wait_for_card(medium)
        self.wait(lambda d: self.family_of_slot(medium) == "systemMedium", "a medium slot")
        self.set_editing(False)
        # A link inside the medium face opens its own address (WidgetKit's Link), not the widget's URL.
        self.wait_for_ticker_text(medium, "sized")
        home = self.driver.current_window_handle
        windows = set(self.driver.window_handles)
        self.click_in_card(medium, "a.wv-link", "a tap on Open")
        opened = self.wait(lambda d: set(d.window_handles) - windows, "a new tab")
        self.driver.switch_to.window(opened.pop())
        try:
            self.wait(lambda d: d.current_url == "http://127.0.0.1:8470/?linked=sized", "the link's address")
        finally:
            self.driver.close()
            self.driver.switch_to.window(home)
        self.set_editing(True)
        self.click_in_card(medium, 'button[data-action="remove"]', "a click on Remove")
        self.wait(lambda d: not d.find_elements(By.CSS_SELECTOR, '.widget[data-widget="%s"]' % medium),
                  "the card to go")
        self.assertNotIn(medium, widgets_by_id())
        self.set_editing(False)

    def test_9e_a_kinds_image_comes_from_its_asset_folder(self):
        # The weather's medium view shows the provider's badge.png.
        weather = widgetctl("add", "--kind", "weather", "--family", "systemMedium", "--json")["id"]
        self.wait(lambda d: widgets_by_id()[weather]["currentEntry"] is not None, "the weather's first timeline")
        self.open_home()
        image = self.wait(lambda d: d.find_elements(
            By.CSS_SELECTOR, '.widget[data-widget="%s"] img' % weather), "the weather badge")[0]
        self.assertEqual(image.get_attribute("src"), BASE_URL + "/kind-assets/weather/badge.png")
        self.wait(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image),
                  "the badge to load")
        self.assertTrue(image.get_attribute("alt"))
        statuses = self.driver.execute_script("""
            return Promise.all(arguments[0].map(path => fetch(path).then(r => r.status + ' ' +
                (r.headers.get('content-type') || ''))));
        """, ["/kind-assets/weather/badge.png", "/kind-assets/weather/..%2f..%2fweather.toml",
              "/kind-assets/weather/weather.views.json", "/kind-assets/nokind/badge.png"])
        self.expected_console_errors += ["weather.toml", "weather.views.json", "nokind"]
        self.assertEqual(statuses[0], "200 image/png")
        for status in statuses[1:]:
            self.assertIn(status.split()[0], ("400", "404"), status)

    def test_9f_content_is_text_and_the_page_is_usable_without_a_mouse(self):
        hostile = "<img src=x onerror=alert(1)>"
        widget = self.add_ticker(hostile)
        self.wait_for_card(widget)
        self.wait(lambda d: hostile in (self.card_text(widget) or ""), "the label, shown as text")
        self.assertFalse(self.card(widget).find_elements(By.CSS_SELECTOR, ".face img"), "no element from content")
        # Every control has a name a screen reader says; every picture a text; every card says what it is.
        unnamed = self.driver.execute_script("""
            return Array.from(document.querySelectorAll('button, select, input, a[href]')).filter(e =>
                !(e.getAttribute('aria-label') || e.textContent.trim() || e.closest('label')))
                .map(e => e.outerHTML.slice(0, 80));
        """)
        self.assertEqual(unnamed, [])
        self.assertEqual(self.driver.execute_script(
            "return Array.from(document.querySelectorAll('img:not([alt])')).length"), 0)
        self.assertEqual(self.driver.execute_script(
            "return Array.from(document.querySelectorAll('#grid .widget:not([aria-label])')).length"), 0)
        self.assertEqual(self.driver.execute_script("return document.documentElement.lang"), "en")
        # The keyboard reaches a widget's tap target, and Enter opens it as a tap does.
        home = self.driver.current_window_handle
        windows = set(self.driver.window_handles)
        url = self.wait(lambda d: self.card(widget).get_attribute("data-url"), "the widget's URL")
        # Focus and the check that it took are one query: a redraw in between would replace the element. Enter
        # then goes to whatever has the focus, as a keyboard's does: a redraw since gives the focus to the new form
        # of the same element (home.js's restoreFocus).
        self.wait(lambda d: d.execute_script("""
            const tap = document.querySelector('.widget[data-widget="' + arguments[0] + '"] a.wv-tap');
            if (!tap || !tap.getClientRects().length) return false;
            tap.focus();
            return document.activeElement === tap;""", widget), "the keyboard's focus on the widget's tap target")
        ActionChains(self.driver).send_keys(Keys.ENTER).perform()
        opened = self.wait(lambda d: set(d.window_handles) - windows, "a new tab")
        self.driver.switch_to.window(opened.pop())
        try:
            # Compared decoded: the browser may write the label's percent-escapes its own way.
            self.wait(lambda d: unquote(d.current_url) == unquote(url), "the widget's URL")
        finally:
            self.driver.close()
            self.driver.switch_to.window(home)


    def test_9g_a_failing_provider_shows_its_error_beside_the_entry_it_keeps(self):
        widget = self.add_ticker("fragile")
        self.wait_for_card(widget)
        self.wait_for_ticker_text(widget, "fragile")
        # The provider now fails: its configuration run exits with status 3 (budget-exempt, so it runs at once).
        widgetctl("configure", widget, "--param", "fail=true")
        # The card as one snapshot: its slot is redrawn at each entry date of the timeline it keeps.
        shown = self.wait(lambda d: d.execute_script("""
            const card = document.querySelector('.widget[data-widget="' + arguments[0] + '"]');
            const error = card && card.querySelector('.run-error');
            if (!error || !error.getClientRects().length) return null;
            const face = card.querySelector('.face');
            return { text: error.textContent, id: error.id, describedBy: card.getAttribute('aria-describedby'),
                     face: face ? face.textContent : null };""", widget), "the failure beside %s" % widget)
        text = shown["text"]
        self.assertTrue(text.startswith("Not updated: its provider exited with status 3."), text)
        # What happens next, as the daemon has it: a retry after the backoff.
        state = widgets_by_id()[widget]
        if state["state"] == "backoff":
            self.assertIn("Trying again at ", text)
        # The card keeps the last entry, and a screen reader hears the failure with the widget.
        self.assertIn("fragile ", shown["face"])
        self.assertTrue(shown["id"])
        self.assertEqual(shown["describedBy"], shown["id"])
        self.driver.save_screenshot(os.path.join(ARTIFACTS, "provider-failed.png"))
        # Fixed, the next run succeeds and the words go.
        widgetctl("configure", widget, "--param", "fail=false")
        self.wait(lambda d: not d.find_elements(By.CSS_SELECTOR, '.widget[data-widget="%s"] .run-error' % widget),
                  "the failure to go after a good run")
        self.wait_for_ticker_text(widget, "fragile")

    # ---- Accessibility: roles and names as a screen reader gets them, the keyboard's order, contrast ------------

    def accessibility_tree(self):
        """Chromium's own accessibility tree (what a screen reader reads): the nodes not ignored, each with its
        role, name and DOM node."""
        self.driver.execute_cdp_cmd("Accessibility.enable", {})
        nodes = self.driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
        return [{"role": (node.get("role") or {}).get("value"), "name": (node.get("name") or {}).get("value") or "",
                 "node": node.get("backendDOMNodeId")} for node in nodes if not node.get("ignored")]

    def test_9h_every_control_and_widget_has_a_role_and_a_name(self):
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#grid .widget"), "the grid")
        tree = self.accessibility_tree()
        roles = [node["role"] for node in tree]
        for landmark in ("banner", "main"):
            self.assertEqual(roles.count(landmark), 1, "one %s landmark: %s" % (landmark, sorted(set(roles))))
        self.assertIn("heading", roles)
        interactive = ("button", "link", "combobox", "textbox", "checkbox", "spinbutton", "searchbox", "image", "img",
                       "listbox", "radio", "slider", "switch", "menuitem")
        unnamed = [node for node in tree if node["role"] in interactive and not node["name"].strip()]
        self.assertEqual(unnamed, [], "controls and pictures without a name")
        widgets = self.driver.execute_script("return document.querySelectorAll('#grid .widget:not([hidden])').length")
        articles = [node for node in tree if node["role"] == "article"]
        self.assertEqual(len(articles), widgets, "each shown widget is an article")
        self.assertTrue(all(node["name"] for node in articles), articles)
        # The panels are dialogs with names once open, and focus stays in them.
        self.driver.find_element(By.ID, "open-gallery").click()
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#gallery .kind"), "the gallery")
        dialogs = [node for node in self.accessibility_tree() if node["role"] == "dialog"]
        self.assertEqual([node["name"] for node in dialogs], ["Add a widget"])
        ActionChains(self.driver).send_keys(Keys.ESCAPE).perform()
        self.wait(lambda d: not d.find_element(By.ID, "gallery").get_attribute("open"), "Escape to close the gallery")
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "open-gallery",
                         "focus back on the button that opened it")

    def test_9i_the_keyboard_goes_through_the_page_in_reading_order_and_keeps_its_place(self):
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#grid .widget"), "the grid")
        self.assertEqual(self.driver.execute_script(
            "return Array.from(document.querySelectorAll('[tabindex]')).filter(e => e.tabIndex > 0).length"), 0,
            "no positive tabindex: the order is the document's")
        # Slots in the document's order are in reading order on screen: row by row, left to right.
        boxes = self.driver.execute_script("""
            return Array.from(document.querySelectorAll('#grid > .slot')).map(s => {
                const r = s.getBoundingClientRect(); return [s.dataset.slot, r.top, r.left, r.bottom]; });""")
        for before, after in zip(boxes, boxes[1:]):
            same_row = after[1] < before[3] and before[1] < after[3]
            self.assertTrue(after[1] >= before[3] - 1 or (same_row and after[2] > before[2]),
                            "%s comes after %s in the document but not on screen" % (after[0], before[0]))
        # Tab from the top: every stop is visible and shows a ring, the header's buttons come first, then the
        # widgets in the grid's order. Ticker entries redraw their slots meanwhile; focus must survive that.
        self.driver.execute_script("""
            window.__stops = [];
            document.addEventListener('focusin', (event) => {
                const e = event.target, card = e.closest('.widget'), slot = e.closest('.slot');
                const style = getComputedStyle(e);
                window.__stops.push({
                    what: e.id || (e.dataset.action || e.className || e.tagName) + '',
                    widget: card ? card.dataset.widget : null,
                    slot: slot ? slot.dataset.slot : null,
                    visible: e.getClientRects().length > 0 && style.visibility !== 'hidden',
                    ring: (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0)
                        || style.boxShadow !== 'none',
                });
            });
            document.activeElement && document.activeElement.blur();""")
        slots = [box[0] for box in boxes]
        stops = []
        for _ in range(6 * len(slots) + 10):
            ActionChains(self.driver).send_keys(Keys.TAB).perform()
            stops = self.driver.execute_script("return window.__stops")
            if stops and stops[-1]["slot"] == slots[-1]:
                break
        self.assertGreaterEqual(len(stops), 3)
        self.assertEqual([stop["what"] for stop in stops[:2]], ["edit-toggle", "open-gallery"])
        hidden = [stop for stop in stops if not stop["visible"]]
        self.assertEqual(hidden, [], "focus went to something not on screen")
        ringless = [stop for stop in stops if not stop["ring"]]
        self.assertEqual(ringless, [], "a focused element shows no ring")
        visited = []
        for stop in stops[2:]:
            if stop["slot"] and (not visited or visited[-1] != stop["slot"]):
                visited.append(stop["slot"])
        path = " ".join("%s@%s/%s" % (stop["what"], stop["slot"], stop["widget"]) for stop in stops)
        self.assertEqual(visited, slots[:len(visited)], "the keyboard's order is the grid's: " + path)
        self.assertEqual(visited[-1], slots[-1], "Tab reaches the last widget")

    def contrast_failures(self):
        """Every visible text on the page whose contrast with what lies behind it is under WCAG AA (4.5:1, 3:1 for
        large text), as [text, ratio, color, background]; texts over a picture or gradient are left out."""
        return self.driver.execute_script("""
            const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
                const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
                return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
            const over = (top, under) => { const a = top[3];
                return [0, 1, 2].map(i => top[i] * a + under[i] * (1 - a)).concat([1]); };
            const luminance = (c) => { const l = c.slice(0, 3).map(v => { v /= 255;
                return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
                return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]; };
            const background = (element) => {
                const layers = [];
                for (let e = element; e; e = e.parentElement) {
                    const style = getComputedStyle(e);
                    if (style.backgroundImage !== 'none') return null;
                    const color = parse(style.backgroundColor);
                    if (color && color[3] > 0) { layers.push(color); if (color[3] >= 1) break; }
                }
                let result = [255, 255, 255, 1];
                if (!layers.length || layers[layers.length - 1][3] < 1) {
                    result = parse(getComputedStyle(document.documentElement).backgroundColor) || result;
                    if (result[3] < 1) result = matchMedia('(prefers-color-scheme: dark)').matches
                        ? [18, 18, 18, 1] : [255, 255, 255, 1];
                }
                for (const layer of layers.reverse()) result = over(layer, result);
                return result;
            };
            const failures = [];
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            const seen = new Set();
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                const element = node.parentElement;
                if (!node.textContent.trim() || seen.has(element)) continue;
                seen.add(element);
                if (element.closest('[hidden], [aria-hidden="true"], .wv-placeholder, :disabled')) continue;
                const rects = element.getClientRects();
                const style = getComputedStyle(element);
                if (!rects.length || style.visibility === 'hidden') continue;
                let opacity = 1;
                for (let e = element; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
                if (opacity === 0) continue;
                const behind = background(element);
                if (!behind) continue;
                const color = parse(style.color);
                color[3] *= opacity;
                const ink = over(color, behind);
                const [a, b] = [luminance(ink), luminance(behind)];
                const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
                const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
                const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
                if (ratio < needed) failures.push([node.textContent.trim().slice(0, 40), Math.round(ratio * 100) / 100,
                    style.color, 'rgb(' + behind.slice(0, 3).map(Math.round).join(',') + ')']);
            }
            return failures;""")

    def test_9j_text_has_enough_contrast_in_both_color_schemes(self):
        failures = {}
        try:
            for scheme in ("light", "dark"):
                self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
                    "features": [{"name": "prefers-color-scheme", "value": scheme}]})
                self.open_home()
                self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#grid .widget"), "the grid")
                found = self.contrast_failures()
                # The back side, the edit bar and the gallery too.
                self.set_editing(True)
                found += self.contrast_failures()
                self.set_editing(False)
                self.driver.find_element(By.ID, "open-gallery").click()
                self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#gallery .kind")
                          and not d.find_elements(By.CSS_SELECTOR, "#gallery .preview[aria-busy]"), "the gallery")
                found += self.contrast_failures()
                ActionChains(self.driver).send_keys(Keys.ESCAPE).perform()
                if found:
                    failures[scheme] = sorted(set(map(tuple, found)))
        finally:
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        self.maxDiff = None
        self.assertEqual(failures, {}, "texts under WCAG AA contrast")

    def test_9k_a_picture_the_provider_saved_is_served_to_the_page_and_its_gallery(self):
        # The photo example's app fills the album through the group (examples/photo-app; 60-web-host.sh has run it
        # before the gallery's first previews, which the host keeps a few minutes); the provider saves the day's
        # picture for its entries, the daemon stores it by its hash, and the host serves it by that hash.
        app = os.path.join(REPOSITORY, "examples", "photo-app", "photo-app")
        subprocess.run([app, os.path.join(REPOSITORY, "examples", "photo-app", "pictures")], check=True,
                       capture_output=True, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
        photo = widgetctl("add", "--kind", "photo", "--family", "systemMedium", "--json")["id"]
        entry = self.wait(lambda d: (widgets_by_id()[photo]["currentEntry"] or {}).get("images")
                          and widgets_by_id()[photo]["currentEntry"], "the photo widget's first picture")
        name = entry["content"]["photo"]
        stored = entry["images"][name]
        self.open_home()
        # The <img> as it is once loaded, found afresh at each try: a redraw of its slot puts a new one in place.
        image = self.wait(lambda d: d.execute_script("""
            const image = document.querySelector('.widget[data-widget="' + arguments[0] + '"] .face img');
            return image && image.complete && image.naturalWidth > 0 && { src: image.src,
                alt: image.getAttribute('alt'), size: [image.naturalWidth, image.naturalHeight] };""", photo),
            "the photo's <img> and its picture loaded")
        self.assertEqual(image["src"], "%s/images/%s/%s" % (BASE_URL, photo, stored["sha256"]))
        self.assertEqual(image["alt"], "Photo of the day")
        self.assertEqual(image["size"], [stored["width"], stored["height"]])
        # What the page fetched: the entry's type and size, cached for good, and the very bytes the app put in.
        served = self.driver.execute_script("""
            return fetch(arguments[0]).then(r => r.arrayBuffer().then(b => ({
                status: r.status, type: r.headers.get('content-type'), cache: r.headers.get('cache-control'),
                etag: r.headers.get('etag'), bytes: Array.from(new Uint8Array(b))})));
        """, image["src"])
        self.assertEqual((served["status"], served["type"]), (200, stored["contentType"]))
        self.assertIn("immutable", served["cache"])
        self.assertIn(stored["sha256"], served["etag"])
        with open(os.path.join(REPOSITORY, "examples", "photo-app", "pictures", name), "rb") as file:
            self.assertEqual(bytes(served["bytes"]), file.read(), "the bytes the app put in the album")
        path = os.path.join(ARTIFACTS, "provided-image.png")
        def screenshot():
            card = self.card(photo)
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", card)
            card.screenshot(path)
        self.retry(screenshot, "a screenshot of the photo's card")
        self.assertGreater(os.path.getsize(path), 5000, path)
        self.driver.save_screenshot(os.path.join(ARTIFACTS, "home-with-photo.png"))

        # The gallery's previews come from the provider's snapshots: their pictures are served by kind.
        self.driver.find_element(By.ID, "open-gallery").click()
        kind = self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, '#gallery .kind[data-kind="photo"]'),
                         "the gallery's photo kind")[0]
        self.wait(lambda d: not kind.find_elements(By.CSS_SELECTOR, ".preview[aria-busy]"), "the photo previews")
        previews = kind.find_elements(By.CSS_SELECTOR, ".preview .face img")
        self.assertTrue(previews, "the previews show the picture")
        for preview in previews:
            self.assertTrue(preview.get_attribute("src").startswith(BASE_URL + "/kind-images/photo/"),
                            preview.get_attribute("src"))
            self.wait(lambda d, p=preview: d.execute_script(
                "return arguments[0].complete && arguments[0].naturalWidth > 0", p), "a preview's picture to load")
        ActionChains(self.driver).send_keys(Keys.ESCAPE).perform()


if __name__ == "__main__":
    unittest.main(verbosity=2)

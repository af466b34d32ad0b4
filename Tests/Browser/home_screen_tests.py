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

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

BASE_URL = os.environ.get("HOST_URL", "http://127.0.0.1:8470")
ARTIFACTS = os.environ.get("BROWSER_ARTIFACTS", "/tmp/widget-host-browser")
# Generous: a wait ends as soon as its condition holds, and a loaded 2-core machine can be slow.
TIMEOUT = float(os.environ.get("BROWSER_TIMEOUT", "60"))


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
        def attempt(driver):
            try:
                return condition(driver)
            except StaleElementReferenceException:
                return False
        return WebDriverWait(self.driver, timeout, poll_frequency=0.1).until(attempt, message)

    def retry(self, action, what):
        """Runs an action on elements, again when a live update replaced them meanwhile (ticker widgets change every
        two seconds, and each change redraws their slot)."""
        return self.wait(lambda d: action() or True, what)

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
            self.assertNotIn("placeholder", self.card(widget["id"]).get_attribute("class"))

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
        # A preview per family, drawn from the provider's snapshot answer.
        self.wait(lambda d: len(kind.find_elements(By.CSS_SELECTOR, ".preview .face")) == 2,
                  "both weather previews")
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
        self.card(widget).find_element(By.CSS_SELECTOR, 'button[data-action="configure"]').click()
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
        self.card(widget).find_element(By.CSS_SELECTOR, 'button[data-action="configure"]').click()
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

    def test_4_a_stack_shows_the_daemons_order_flips_and_pins(self):
        widgets = [self.add_ticker("low", 1), self.add_ticker("high", 9), self.add_ticker("mid", 5)]
        for widget in widgets:
            self.wait_for_card(widget)
            self.wait(lambda d, w=widget: widgets_by_id()[w]["currentEntry"] is not None, "%s's timeline" % widget)
        self.set_editing(True)
        target = self.slot_of(widgets[0]).get_attribute("data-slot")
        for widget in widgets[1:]:
            self.retry(lambda w=widget: Select(self.card(w).find_element(
                By.CSS_SELECTOR, 'select[data-action="stack"]')).select_by_value(target), "stacking %s" % widget)
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
                "return getComputedStyle(document.body).backgroundColor")
            path = os.path.join(ARTIFACTS, "home-%s.png" % scheme)
            self.driver.save_screenshot(path)
            self.assertGreater(os.path.getsize(path), 10000, path)
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        self.assertNotEqual(backgrounds["light"], backgrounds["dark"], "the dark scheme changes the page")


if __name__ == "__main__":
    unittest.main(verbosity=2)

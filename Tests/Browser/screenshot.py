"""Photographs a page in headless Chromium once its grid is drawn and its pictures loaded: screenshot.py URL PNG
[light|dark].

The demo's picture of the home screen (scripts/demo.sh). Chromium's own --screenshot waits for the network to go
quiet, which a page listening to Server-Sent Events never does; Selenium waits for the grid instead."""
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

url, path = sys.argv[1], sys.argv[2]
scheme = sys.argv[3] if len(sys.argv) > 3 else "light"
options = webdriver.ChromeOptions()
for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--hide-scrollbars",
                 "--window-size=1100,640", "--lang=en-US"]:
    options.add_argument(argument)
options.binary_location = "/usr/bin/chromium"
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
try:
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": scheme}]})
    driver.get(url)
    WebDriverWait(driver, 60, poll_frequency=0.1).until(
        lambda d: d.execute_script("return document.readyState === 'complete' && "
                                   "document.querySelectorAll('#grid .slot').length > 0"), "the grid")
    # Pictures (a photo widget's) are fetched after the grid is drawn: wait until each has loaded, or failed.
    WebDriverWait(driver, 60, poll_frequency=0.1).until(
        lambda d: d.execute_script("return Array.from(document.images).every(image => image.complete)"),
        "the pictures")
    # Let the fonts settle before the picture; nothing is measured here.
    time.sleep(0.5)
    driver.save_screenshot(path)
finally:
    driver.quit()

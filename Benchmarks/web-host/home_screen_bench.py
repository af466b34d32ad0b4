"""Issue 32 §5, the web home screen's figures (benchmarks, not tests), measured in headless Chromium against the
real widget-host and widget-scheduler under systemd (Benchmarks/web-host.sh sets them up):

  first render  a 100-widget page: navigation start to the load event and to the first contentful paint;
  size          widget-host's RSS with 100 widgets and 5 open pages;
  idle          with nothing changing and no timer text: widget-host's wake-ups (context switches, as P3 counts the
                daemon's) and CPU a second, and the same for the pages' renderer processes, with one page's script
                time over the window (no periodic script);
  P6            an entry's date to its changed text in the DOM (a MutationObserver stamping
                performance.timeOrigin + performance.now()), p50/p99 over 100 widgets changing together every two
                seconds, beside the daemon's own lateness for the same entries (its Watch stream, read here).
"""
import json
import os
import re
import socket
import statistics
import subprocess
import threading
import time
from datetime import datetime

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

URL = "http://127.0.0.1:8470/"
WIDGETS = int(os.environ.get("BENCH_WIDGETS", "100"))
P6_SECONDS = float(os.environ.get("BENCH_P6_SECONDS", "40"))
IDLE_SECONDS = float(os.environ.get("BENCH_IDLE_SECONDS", "30"))
SOCKET = os.environ.get("WIDGET_SCHEDULER_SOCKET", "/run/widget-scheduler/control.socket")


def widgetctl(*arguments):
    output = subprocess.run(["widgetctl", *arguments], check=True, capture_output=True, text=True).stdout
    return json.loads(output) if "--json" in arguments else output


def host_pid():
    return int(subprocess.run(["systemctl", "show", "-P", "MainPID", "widget-host"], check=True,
                              capture_output=True, text=True).stdout)


def threads(pid):
    """Each thread of pid: (context switches, nanoseconds on a CPU). Context switches are its wake-ups, as P3
    counts the daemon's; schedstat's CPU time has nanosecond resolution where /proc/PID/stat has ticks."""
    found = {}
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            switched = 0
            with open("/proc/%d/task/%s/status" % (pid, task)) as status:
                for line in status:
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        switched += int(line.split()[1])
            with open("/proc/%d/task/%s/schedstat" % (pid, task)) as schedstat:
                on_cpu = int(schedstat.read().split()[0])
            found[(pid, task)] = (switched, on_cpu)
        except (FileNotFoundError, ProcessLookupError):  # a thread that ended meanwhile
            pass
    return found


def descendants(pid):
    """Every process below pid."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (FileNotFoundError, ProcessLookupError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found, queue = [], [pid]
    while queue:
        for child in children.get(queue.pop(), []):
            found.append(child)
            queue.append(child)
    return found


def renderers(driver):
    """The browser's renderer processes (the pages)."""
    pids = []
    for pid in descendants(driver.service.process.pid):
        try:
            with open("/proc/%d/cmdline" % pid, "rb") as cmdline:
                if b"--type=renderer" in cmdline.read():
                    pids.append(pid)
        except FileNotFoundError:
            pass
    return pids


def snapshot(pids):
    """Every thread of pids, as `threads` gives it."""
    found = {}
    for pid in pids:
        try:
            found.update(threads(pid))
        except (FileNotFoundError, ProcessLookupError):
            pass
    return found


def usage(before, after):
    """(context switches, CPU seconds, threads that ended) between two snapshots: a thread born meanwhile counts
    whole; one that ended took its last counts with it, so the figures are then a floor."""
    woken = sum(counts[0] - before.get(thread, (0, 0))[0] for thread, counts in after.items())
    cpu = sum(counts[1] - before.get(thread, (0, 0))[1] for thread, counts in after.items()) / 1e9
    return woken, cpu, len(set(before) - set(after))


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def browser():
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1400,1000"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def add_widgets(kind, count, *parameters):
    ids = []
    for number in range(count):
        arguments = ["add", "--kind", kind, "--family", "systemSmall"]
        for parameter in parameters:
            arguments += ["--param", parameter % number]
        ids.append(widgetctl(*arguments, "--json")["id"])
    deadline = time.time() + 300
    while time.time() < deadline:
        listed = {widget["id"]: widget for widget in widgetctl("list", "--json")}
        if all(listed[i]["currentEntry"] for i in ids):
            return ids
        time.sleep(0.5)
    raise SystemExit("the widgets' first timelines did not come")


def wait_for(driver, script, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if driver.execute_script(script):
            return
        time.sleep(0.1)
    raise SystemExit("timed out: " + script)


# The first render's stages, from the navigation's timing: (name, the mark it ends at, the mark it starts at).
RENDER_STAGES = [("request", "responseStart", "requestStart"), ("response", "responseEnd", "responseStart"),
                 ("parse", "domInteractive", "responseEnd"), ("script", "domContentLoadedEventEnd", "domInteractive"),
                 ("to load", "loadEventEnd", "domContentLoadedEventEnd")]


def first_render(driver, rounds=5):
    """Medians of `rounds` loads: the load event, the first contentful paint, the page's size, and each stage."""
    loads, paints, sizes, stages = [], [], [], {name: [] for name, _, _ in RENDER_STAGES}
    for _ in range(rounds):
        driver.get(URL)
        wait_for(driver, "return document.readyState === 'complete' && "
                         "performance.getEntriesByName('first-contentful-paint').length > 0")
        navigation = driver.execute_script("return performance.getEntriesByType('navigation')[0].toJSON()")
        paint = driver.execute_script("return performance.getEntriesByName('first-contentful-paint')[0].startTime")
        loads.append(navigation["loadEventEnd"])
        paints.append(paint)
        sizes.append(navigation["decodedBodySize"])
        for name, end, start in RENDER_STAGES:
            stages[name].append(navigation[end] - navigation[start])
    return (statistics.median(loads), statistics.median(paints), statistics.median(sizes),
            {name: statistics.median(values) for name, values in stages.items()})


def idle(driver, pid):
    """Nothing due for IDLE_SECONDS: the host's and the pages' wake-ups and CPU, and the page's script time."""
    driver.execute_cdp_cmd("Performance.enable", {})
    before = {m["name"]: m["value"] for m in driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]}
    pages = renderers(driver)
    host_start, pages_start = snapshot([pid]), snapshot(pages)
    started = time.monotonic()
    time.sleep(IDLE_SECONDS)  # the point is that time passes with nothing to do
    elapsed = time.monotonic() - started
    host = usage(host_start, snapshot([pid]))
    rendering = usage(pages_start, snapshot(pages))
    after = {m["name"]: m["value"] for m in driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]}
    return {
        "host_wakeups": host[0] / elapsed, "host_cpu_ms": host[1] * 1000 / elapsed, "host_ended": host[2],
        "pages": len(pages),
        "pages_wakeups": rendering[0] / elapsed, "pages_cpu_ms": rendering[1] * 1000 / elapsed,
        "pages_ended": rendering[2],
        "script_ms": (after["ScriptDuration"] - before["ScriptDuration"]) * 1000,
    }


class StampedReader(threading.Thread):
    """A stream read on its own thread, each message handed to `stamp` with the moment its last bytes arrived."""

    separator = b"\0"

    def __init__(self, connection, request):
        super().__init__(daemon=True)
        self.arrivals = {}
        self.connection = connection
        self.connection.sendall(request)

    def run(self):
        pending = b""
        while True:
            chunk = self.connection.recv(1 << 16)
            now = time.time()
            if not chunk:
                return
            pending += chunk
            *messages, pending = pending.split(self.separator)
            for message in messages:
                self.stamp(message, now)


class WatchReader(StampedReader):
    """The daemon's Watch stream, each entryChanged stamped when it arrives: the daemon's own lateness."""

    def __init__(self):
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.connect(SOCKET)
        super().__init__(connection, json.dumps({"method": "io.widgetscheduler.Scheduler.Watch", "parameters": {},
                                                 "more": True}).encode() + b"\0")

    def stamp(self, message, now):
        event = json.loads(message).get("parameters") or {}
        if event.get("event") == "entryChanged":
            self.arrivals[(event["widget"], event["date"])] = now


class EventReader(StampedReader):
    """The host's event stream, as a page gets it: each widget's new entry stamped when its card or its face arrives,
    so that P6 splits into the daemon's part (date to Watch), the host's (Watch to the event stream) and the page's."""

    # A slot's card (`<article ... data-widget=\"ID\"`) or a face sent alone (`{"widget":"ID","html":...`).
    CARD = re.compile(r'<article[^>]*data-widget=\\"([^"\\]+)\\"|"widget":"([^"\\]+)"')
    DATE = re.compile(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")
    separator = b"\n\n"

    def __init__(self):
        super().__init__(socket.create_connection(("127.0.0.1", 8470)),
                         b"GET /events HTTP/1.1\r\nHost: 127.0.0.1:8470\r\nAccept: text/event-stream\r\n\r\n")

    def stamp(self, message, now):
        # split gives [before, card's widget, face's widget, its markup, ...], one of the two widgets None
        cards = self.CARD.split(message.decode(errors="replace"))
        for card, face, markup in zip(cards[1::3], cards[2::3], cards[3::3]):
            widget = card or face
            date = self.DATE.search(markup)
            if date:
                self.arrivals.setdefault((widget, date.group(1)), now)


OBSERVER = """
window.__p6 = [];
const seen = new Set();
const stamp = (card, now) => {
    const match = card.textContent.match(/(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ)/);
    if (!match) return;
    const key = card.dataset.widget + ' ' + match[1];
    if (seen.has(key)) return;
    seen.add(key);
    if (now !== null) window.__p6.push([card.dataset.widget, match[1], now]);
};
document.querySelectorAll('#grid .widget').forEach(card => stamp(card, null));
new MutationObserver(records => {
    const now = performance.timeOrigin + performance.now();
    for (const record of records) {
        for (const node of record.addedNodes) {
            if (node.nodeType !== 1) continue;
            // A slot or a card drawn again, or a face replaced inside its card.
            const card = node.closest('.widget');
            (card ? [card] : node.querySelectorAll('.widget')).forEach(c => stamp(c, now));
        }
    }
}).observe(document.getElementById('grid'), { childList: true, subtree: true });
"""


# The page's main-thread work, as Chromium counts it (seconds in all): script, style, layout, and every task.
PAGE_WORK = ["ScriptDuration", "RecalcStyleDuration", "LayoutDuration", "TaskDuration"]


def page_metrics(driver):
    return {m["name"]: m["value"] for m in driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]}


def p6(driver, pid):
    watch = WatchReader()
    watch.start()
    events = EventReader()
    events.start()
    driver.get(URL)
    wait_for(driver, "return document.querySelectorAll('#grid .widget').length >= %d" % WIDGETS)
    driver.execute_script(OBSERVER)
    pages = renderers(driver)
    driver.execute_cdp_cmd("Performance.enable", {})
    metrics_start = page_metrics(driver)
    host_start, pages_start = snapshot([pid]), snapshot(pages)
    time.sleep(P6_SECONDS)  # entries come every two seconds meanwhile
    host, rendering = usage(host_start, snapshot([pid])), usage(pages_start, snapshot(pages))
    metrics_end = page_metrics(driver)
    samples = driver.execute_script("return window.__p6")
    changes = max(1, len(samples))
    cost = {"host_cpu_ms": host[1] * 1000 / changes, "pages_cpu_ms": rendering[1] * 1000 / changes,
            "main_thread_ms": {name: (metrics_end[name] - metrics_start[name]) * 1000 / changes
                               for name in PAGE_WORK}}
    screen, daemon, stages = [], [], {"daemon": [], "host": [], "page": []}
    for widget, date, stamp in samples:
        due = datetime.fromisoformat(date.replace("Z", "+00:00")).timestamp()
        screen.append(stamp / 1000 - due)
        arrived = watch.arrivals.get((widget, date))
        if arrived is not None:
            daemon.append(arrived - due)
        sent = events.arrivals.get((widget, date))
        if arrived is not None and sent is not None:
            stages["daemon"].append(arrived - due)
            stages["host"].append(sent - arrived)
            stages["page"].append(stamp / 1000 - sent)
    return screen, daemon, stages, cost


def main():
    pid = host_pid()
    driver = browser()
    try:
        # 100 widgets that change hourly: the first render, the size with 5 pages, and idle.
        add_widgets("quote", WIDGETS)
        load, paint, size, stages = first_render(driver)
        print("first render of a %d-widget page: load event %.0f ms, first contentful paint %.0f ms (medians of 5)"
              % (WIDGETS, load, paint))
        print("  the page %.0f kB; %s (ms)" % (size / 1000, ", ".join("%s %.0f" % item for item in stages.items())))
        for _ in range(4):
            driver.switch_to.new_window("tab")
            driver.get(URL)
            wait_for(driver, "return document.querySelectorAll('#grid .widget').length >= %d" % WIDGETS)
        print("widget-host RSS with %d widgets and 5 open pages: %.1f MB" % (WIDGETS, rss_kib(pid) / 1024))
        quiet = idle(driver, pid)
        print("idle over %.0f s (5 pages, nothing changing, no timer text):" % IDLE_SECONDS)
        print("  widget-host: %.2f wake-ups a second, %.3f ms CPU a second, RSS %.1f MB%s"
              % (quiet["host_wakeups"], quiet["host_cpu_ms"], rss_kib(pid) / 1024,
                 " (%d threads ended meanwhile: a floor)" % quiet["host_ended"] if quiet["host_ended"] else ""))
        print("  the pages' %d renderer processes: %.2f wake-ups a second, %.3f ms CPU a second%s; one page's "
              "script ran %.1f ms in all" % (quiet["pages"], quiet["pages_wakeups"], quiet["pages_cpu_ms"],
                                             " (%d threads ended: a floor)" % quiet["pages_ended"]
                                             if quiet["pages_ended"] else "", quiet["script_ms"]))
        for handle in driver.window_handles[1:]:
            driver.switch_to.window(handle)
            driver.close()
        driver.switch_to.window(driver.window_handles[0])
        # 100 widgets changing together every two seconds: P6.
        for widget in widgetctl("list", "--json"):
            widgetctl("remove", widget["id"])
        add_widgets("ticker", WIDGETS, "label=t%d")
        screen, daemon, stages, cost = p6(driver, pid)
        print("P6 on screen, %d entry changes of %d widgets: p50 %.1f ms, p99 %.1f ms, max %.1f ms"
              % (len(screen), WIDGETS, percentile(screen, 0.5) * 1000, percentile(screen, 0.99) * 1000,
                 max(screen) * 1000))
        if daemon:
            print("  the daemon's own lateness for the same entries (Watch): p50 %.1f ms, p99 %.1f ms"
                  % (percentile(daemon, 0.5) * 1000, percentile(daemon, 0.99) * 1000))
        if stages["host"]:
            print("  by stage, %d changes seen at every stage: p50 / p99 (ms)" % len(stages["host"]))
            for stage, what in [("daemon", "entry date to the Watch event"), ("host", "Watch event to the host's "
                                "event stream"), ("page", "event stream to the changed DOM")]:
                print("    %-6s %-40s %7.1f / %7.1f" % (stage, what, percentile(stages[stage], 0.5) * 1000,
                                                        percentile(stages[stage], 0.99) * 1000))
        print("  CPU an entry change: widget-host %.3f ms, the page's renderer %.3f ms (the host serves two readers "
              "of its event stream: the page and this bench's stage stamps)"
              % (cost["host_cpu_ms"], cost["pages_cpu_ms"]))
        work = cost["main_thread_ms"]
        print("  the page's main thread an entry change (ms): %s" % ", ".join(
            "%s %.3f" % (name.replace("Duration", "").lower(), value) for name, value in work.items()))
        print("widget-host RSS after P6: %.1f MB" % (rss_kib(pid) / 1024))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()

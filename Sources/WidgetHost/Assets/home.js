// widget-host's page script: the only script the page runs (the Content-Security-Policy allows no other).
// It keeps the grid current from the host's Server-Sent Events, ticks relative and timer texts (only while some
// are on the page), flips stacks, opens taps, and sends a person's actions to the host as JSON.
"use strict";

(() => {
    const grid = document.getElementById("grid");
    const banner = document.getElementById("banner");
    const notice = document.createElement("p");
    notice.id = "notice";
    notice.className = "notice";
    notice.setAttribute("role", "status");
    notice.hidden = true;
    document.body.append(notice);

    // ---- Talking to the host ------------------------------------------------------------------------------------

    async function post(url, body) {
        let response;
        try {
            response = await fetch(url, {
                method: "POST",
                headers: { "Content-Type": "application/json" },
                body: JSON.stringify(body ?? {}),
                credentials: "same-origin",
            });
        } catch (error) {
            return { ok: false, error: "The home screen's host does not answer (" + error.message + ")." };
        }
        let data = {};
        try {
            data = await response.json();
        } catch (error) {
            data = {};
        }
        if (!response.ok) {
            return { ok: false, error: data.error || response.status + " " + response.statusText, field: data.field };
        }
        return { ok: true, data };
    }

    async function fragment(url) {
        try {
            const response = await fetch(url, { credentials: "same-origin" });
            return await response.text();
        } catch (error) {
            return '<p class="error" role="alert">The home screen\'s host does not answer.</p>';
        }
    }

    // Markup from the host: every text in it was escaped there, so it is inserted as it came.
    function nodes(html) {
        const template = document.createElement("template");
        template.innerHTML = html;
        return template.content;
    }

    function say(text) {
        notice.textContent = text;
        notice.hidden = false;
        clearTimeout(say.timer);
        say.timer = setTimeout(() => { notice.hidden = true; }, 8000);
    }

    function showError(element, text) {
        const slot = element && element.querySelector(".error");
        if (slot) {
            slot.textContent = text;
            slot.hidden = !text;
        } else if (text) {
            say(text);
        }
    }

    // ---- Live updates -------------------------------------------------------------------------------------------

    // The host's version of what the page shows (opaque: the host's run and its count of changes).
    let version = grid.dataset.version || "";
    // Stacks a person flipped, so an update does not snap them back at once: slot id -> { widget, at }.
    const flipped = new Map();
    const keepFlipMilliseconds = 15000;

    // A redraw replaces elements: the one that had the keyboard's focus gets it back in its new form, so a person
    // moving through the page with Tab keeps their place when an entry changes.
    const focusable = "a[href], button, select, input, textarea, [tabindex]";

    function focusAddress(root) {
        const active = document.activeElement;
        if (!active || active === document.body || !root.contains(active)) return null;
        const card = active.closest(".widget");
        const slot = active.closest(".slot");
        return {
            widget: card ? card.dataset.widget : null,
            slot: slot ? slot.dataset.slot : null,
            index: Array.from((card || slot || root).querySelectorAll(focusable)).indexOf(active),
        };
    }

    function restoreFocus(address, root) {
        if (!address || address.index < 0) return;
        let slot = root;
        if (address.slot !== null && root.dataset.slot !== address.slot) {
            slot = root.querySelector('.slot[data-slot="' + CSS.escape(address.slot) + '"]');
        }
        if (!slot) return;
        let scope = slot;
        if (address.widget) {
            scope = slot.querySelector('.widget[data-widget="' + CSS.escape(address.widget) + '"]');
            // A stack that turned over hid the card that had the focus: the card now on top takes it.
            if (!scope || scope.hidden) scope = slot.querySelector(".widget:not([hidden])");
        }
        const again = scope && scope.querySelectorAll(focusable)[address.index];
        if (again) again.focus({ preventScroll: true });
    }

    function replaceGrid(payload) {
        if (payload.version === version && grid.childElementCount > 0) return;
        version = payload.version;
        grid.dataset.version = version;
        const focused = focusAddress(grid);
        grid.replaceChildren(nodes(payload.html));
        grid.querySelectorAll(".slot").forEach(restoreFlip);
        restoreFocus(focused, grid);
        schedulePreviewLoads(grid);
        startTicking();
    }

    // What changed together (a burst of entries at one instant) comes in one event and is redrawn in one go: slots
    // whole, and the faces alone of widgets that have a slot to themselves, whose new entry changes nothing else of
    // their cards. Each kind's markup is parsed in one go too: one parser run for the burst instead of one a slot.
    function applyChanges(payload) {
        version = payload.version;
        grid.dataset.version = version;
        if (payload.slots.length > 0) {
            Array.from(nodes(payload.slots.map((slot) => slot.html).join("")).children).forEach(replaceSlot);
        }
        if (payload.faces.length > 0) replaceFaces(payload.faces);
        startTicking();
    }

    function replaceFaces(faces) {
        const fresh = Array.from(nodes(faces.map((face) => face.html).join("")).children);
        const cardsByWidget = new Map();
        grid.querySelectorAll(".widget").forEach((card) => cardsByWidget.set(card.dataset.widget, card));
        faces.forEach((face, index) => {
            const card = cardsByWidget.get(face.widget);
            const old = card && card.querySelector(":scope > .face");
            if (!old || !fresh[index]) return;
            const focused = focusAddress(card);
            old.replaceWith(fresh[index]);
            if (face.url) card.dataset.url = face.url;
            else delete card.dataset.url;
            card.classList.remove("placeholder");
            restoreFocus(focused, card.closest(".slot"));
        });
    }

    function replaceSlot(fresh) {
        const old = document.getElementById(fresh.id);
        if (!old || !old.classList.contains("slot")) return;
        // Keep an open back side open.
        const openBack = old.querySelector(".widget.flipped");
        const focused = focusAddress(old);
        old.replaceWith(fresh);
        restoreFlip(fresh);
        if (openBack) {
            const again = fresh.querySelector('.widget[data-widget="' + openBack.dataset.widget + '"]');
            if (again) {
                const back = again.querySelector(".back");
                back.replaceWith(openBack.querySelector(".back"));
                again.classList.add("flipped");
            }
        }
        restoreFocus(focused, fresh);
    }

    function setStatus(payload) {
        if (payload.up) {
            banner.hidden = true;
            banner.replaceChildren();
            document.body.classList.remove("daemon-down");
        } else {
            banner.replaceChildren(nodes(payload.message || "The widget daemon is not running."));
            banner.hidden = false;
            document.body.classList.add("daemon-down");
        }
    }

    function connect() {
        // The version the page was drawn at spares it the grid it already shows.
        const source = new EventSource("/events?version=" + encodeURIComponent(version));
        source.addEventListener("grid", (event) => replaceGrid(JSON.parse(event.data)));
        source.addEventListener("changes", (event) => applyChanges(JSON.parse(event.data)));
        source.addEventListener("status", (event) => setStatus(JSON.parse(event.data)));
        source.addEventListener("open", () => document.body.classList.remove("host-down"));
        source.addEventListener("error", () => {
            // The browser reconnects by itself; say so meanwhile.
            if (source.readyState !== EventSource.OPEN) document.body.classList.add("host-down");
        });
    }

    // ---- Texts that keep themselves current ---------------------------------------------------------------------
    // WidgetViews draws date texts as <time datetime data-style="relative|timer|time|date" [data-now] [data-tz]
    // [data-seconds]>, right for the moment the host drew them. The page keeps them current by docs/views.md's rules
    // ("Dates that keep themselves current"), the ones widgetctl show follows, as WidgetKit keeps Text(date, style:)
    // current: a countdown costs the provider no entry a second. One timer wakes the page when the first text
    // changes; without such texts, or while the page is hidden, no timer runs at all.

    let tickTimer = null;
    const zoneFormats = new Map();

    function pad(number) {
        return String(number).padStart(2, "0");
    }

    function clockText(seconds) {
        const hours = Math.floor(seconds / 3600);
        const minutes = Math.floor((seconds % 3600) / 60);
        const rest = seconds % 60;
        return (hours > 0 ? hours + ":" + pad(minutes) : String(minutes)) + ":" + pad(rest);
    }

    function hoursAndMinutes(minutes) {
        const rest = minutes % 60;
        return Math.floor(minutes / 60) + " h" + (rest === 0 ? "" : " " + rest + " min");
    }

    function daysText(days) {
        return days === 1 ? "1 day" : days + " days";
    }

    // [text, the moment it next changes], both as DateText.relative says.
    function relativeText(date, now) {
        const delta = date - now;
        if (delta > 0) {
            const seconds = Math.ceil(delta / 1000);
            if (seconds < 60) return ["in " + seconds + " s", date - (seconds - 1) * 1000];
            const minutes = Math.ceil(seconds / 60);
            if (minutes < 60) return ["in " + minutes + " min", date - Math.max(59, (minutes - 1) * 60) * 1000];
            if (minutes < 1440) return ["in " + hoursAndMinutes(minutes), date - (minutes - 1) * 60000];
            const days = Math.floor(minutes / 1440);
            return ["in " + daysText(days), date - (days * 1440 - 1) * 60000];
        }
        const seconds = Math.floor(-delta / 1000);
        if (seconds === 0) return ["now", date + 1000];
        if (seconds < 60) return [seconds + " s ago", date + (seconds + 1) * 1000];
        const minutes = Math.floor(seconds / 60);
        if (minutes < 60) return [minutes + " min ago", date + (minutes + 1) * 60000];
        if (minutes < 1440) return [hoursAndMinutes(minutes) + " ago", date + (minutes + 1) * 60000];
        const days = Math.floor(minutes / 1440);
        return [daysText(days) + " ago", date + (days + 1) * 86400000];
    }

    // [text, the moment it next changes], as DateText.timer says.
    function timerText(date, now) {
        const delta = date - now;
        if (delta > 0) {
            const seconds = Math.ceil(delta / 1000);
            return [clockText(seconds), date - (seconds - 1) * 1000];
        }
        const seconds = Math.floor(-delta / 1000);
        return [clockText(seconds), date + (seconds + 1) * 1000];
    }

    // The wall clock of `milliseconds` in `zone` (the page's when empty or unknown): numbers, and the offset from UTC.
    function wallClock(milliseconds, zone) {
        let format = zoneFormats.get(zone);
        if (!format) {
            const options = { hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric",
                              minute: "numeric", second: "numeric", weekday: "short" };
            try {
                format = new Intl.DateTimeFormat("en-US", zone ? { ...options, timeZone: zone } : options);
            } catch (error) {
                format = new Intl.DateTimeFormat("en-US", options);
            }
            zoneFormats.set(zone, format);
        }
        const parts = {};
        for (const part of format.formatToParts(new Date(milliseconds))) parts[part.type] = part.value;
        const wall = { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day),
                       hour: Number(parts.hour) % 24, minute: Number(parts.minute), second: Number(parts.second),
                       weekday: parts.weekday };
        const asUTC = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
        wall.offset = asUTC - Math.floor(milliseconds / 1000) * 1000;
        return wall;
    }

    const monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

    // [text, the moment it next changes] of a date text, or null for one that never changes (a fixed time or day).
    function dateText(element, now) {
        const style = element.dataset.style;
        const date = Date.parse(element.getAttribute("datetime"));
        if (Number.isNaN(date)) return null;
        if (style === "relative") return relativeText(date, now);
        if (style === "timer") return timerText(date, now);
        if (!("now" in element.dataset)) return null;
        const wall = wallClock(now, element.dataset.tz || "");
        if (style === "time") {
            const seconds = "seconds" in element.dataset;
            const unit = seconds ? 1000 : 60000;
            const text = pad(wall.hour) + ":" + pad(wall.minute) + (seconds ? ":" + pad(wall.second) : "");
            return [text, Math.floor(now / unit) * unit + unit];
        }
        if (style === "date") {
            const local = now + wall.offset;
            const midnight = (Math.floor(local / 86400000) + 1) * 86400000 - wall.offset;
            return [wall.weekday + " " + wall.day + " " + monthNames[wall.month - 1], midnight];
        }
        return null;
    }

    function tick() {
        tickTimer = null;
        const now = Date.now();
        let next = Infinity;
        document.querySelectorAll("time[data-style]").forEach((element) => {
            const said = dateText(element, now);
            if (!said) return;
            if (element.textContent !== said[0]) element.textContent = said[0];
            next = Math.min(next, said[1]);
        });
        if (next !== Infinity && !document.hidden) tickTimer = setTimeout(tick, Math.max(0, next - Date.now()));
    }

    function startTicking() {
        if (tickTimer !== null) clearTimeout(tickTimer);
        tickTimer = null;
        tick();
    }

    document.addEventListener("visibilitychange", startTicking);

    // ---- Stacks -------------------------------------------------------------------------------------------------

    function cards(slot) {
        return Array.from(slot.querySelectorAll(":scope > .widget"));
    }

    function show(slot, index) {
        const all = cards(slot);
        if (all.length === 0) return;
        const wrapped = ((index % all.length) + all.length) % all.length;
        all.forEach((card, position) => {
            card.hidden = position !== wrapped;
            card.classList.toggle("shown", position === wrapped);
        });
        const dots = slot.querySelector(".dots");
        if (dots) dots.textContent = wrapped + 1 + " / " + all.length;
        return all[wrapped];
    }

    function restoreFlip(slot) {
        const remembered = flipped.get(slot.dataset.slot);
        if (!remembered) return;
        if (Date.now() - remembered.at > keepFlipMilliseconds) {
            flipped.delete(slot.dataset.slot);
            return;
        }
        const index = cards(slot).findIndex((card) => card.dataset.widget === remembered.widget);
        if (index >= 0) show(slot, index);
    }

    function flip(slot, delta) {
        const all = cards(slot);
        const current = all.findIndex((card) => !card.hidden);
        const card = show(slot, current + delta);
        if (card) flipped.set(slot.dataset.slot, { widget: card.dataset.widget, at: Date.now() });
    }

    // ---- Taps ---------------------------------------------------------------------------------------------------

    async function openTap(card, url) {
        if (!url) return;
        if (document.body.dataset.tap === "command") {
            const result = await post("/api/widgets/" + encodeURIComponent(card.dataset.widget) + "/open", { url });
            if (!result.ok) showError(card, result.error);
            return;
        }
        window.open(url, "_blank", "noopener,noreferrer");
    }

    // ---- Actions on a card --------------------------------------------------------------------------------------

    function widgetURL(card, path) {
        return "/api/widgets/" + encodeURIComponent(card.dataset.widget) + path;
    }

    async function inspect(card) {
        const back = card.querySelector(".back");
        back.replaceChildren(nodes(await fragment("/fragments/back/" + encodeURIComponent(card.dataset.widget))));
        back.hidden = false;
        card.classList.add("flipped");
    }

    async function act(button, card) {
        const slot = card.closest(".slot");
        showError(card, "");
        let result = { ok: true };
        switch (button.dataset.action) {
            case "inspect":
                await inspect(card);
                return;
            case "flip-back":
                card.classList.remove("flipped");
                card.querySelector(".back").hidden = true;
                return;
            case "reload": {
                const decision = card.querySelector(".back .decision");
                decision.textContent = "Asking the scheduler…";
                result = await post(widgetURL(card, "/reload"));
                decision.textContent = result.ok ? result.data.decision : result.error;
                decision.classList.toggle("error-text", !result.ok);
                return;
            }
            case "configure":
                await openConfigure(card.dataset.widget);
                return;
            case "remove":
                result = await post(widgetURL(card, "/remove"));
                break;
            case "move":
                result = await post("/api/slots/" + encodeURIComponent(slot.dataset.slot) + "/move",
                    { delta: Number(button.dataset.delta) });
                break;
            case "pin":
            case "unpin":
                result = await post(widgetURL(card, "/pin"), { pinned: button.dataset.action === "pin" });
                break;
            case "unstack":
                result = await post(widgetURL(card, "/unstack"));
                break;
            default:
                return;
        }
        if (!result.ok) showError(card, result.error);
    }

    grid.addEventListener("click", (event) => {
        const target = event.target;
        const flipButton = target.closest(".flip");
        if (flipButton) {
            flip(flipButton.closest(".slot"), Number(flipButton.dataset.flip));
            return;
        }
        const card = target.closest(".widget");
        if (!card) return;
        const button = target.closest("button[data-action]");
        if (button) {
            event.preventDefault();
            act(button, card);
            return;
        }
        if (target.closest("select, label, .back, .edit-bar")) return;
        const link = target.closest("a[href]");
        if (link) event.preventDefault();
        if (document.body.classList.contains("editing") || card.classList.contains("flipped")) return;
        openTap(card, link ? link.getAttribute("href") : card.dataset.url);
    });

    // "Stack with" lists the other slots of the card's size with room left, read from the grid when a person opens
    // the menu (focus comes first by keyboard, pointerdown first by mouse, touch or pen).
    function fillStackTargets(select) {
        const slot = select.closest(".slot");
        const limit = Number(grid.dataset.stackLimit);
        const targets = Array.from(grid.querySelectorAll(":scope > .slot")).filter((other) =>
            other !== slot && other.dataset.family === slot.dataset.family && cards(other).length < limit);
        const options = [new Option("…", "")];
        for (const other of targets) {
            options.push(new Option(cards(other).map((card) => card.dataset.name).join(", "), other.dataset.slot));
        }
        if (targets.length === 0) {
            const none = new Option("No other place of this size", "");
            none.disabled = true;
            options.push(none);
        }
        select.replaceChildren(...options);
    }

    for (const type of ["focusin", "pointerdown"]) {
        grid.addEventListener(type, (event) => {
            const select = event.target.closest && event.target.closest('select[data-action="stack"]');
            if (select) fillStackTargets(select);
        });
    }

    grid.addEventListener("change", async (event) => {
        const select = event.target.closest("select[data-action]");
        if (!select) return;
        const card = select.closest(".widget");
        showError(card, "");
        let result;
        if (select.dataset.action === "resize") {
            result = await post(widgetURL(card, "/resize"), { family: select.value });
        } else if (select.dataset.action === "stack" && select.value) {
            result = await post(widgetURL(card, "/stack"), { slot: select.value });
        } else {
            return;
        }
        if (!result.ok) showError(card, result.error);
    });

    // ---- Arranging by dragging (pointer events: mouse, touch and pen alike) --------------------------------------

    let drag = null;

    grid.addEventListener("pointerdown", (event) => {
        if (!document.body.classList.contains("editing") || event.button !== 0) return;
        if (event.target.closest("button, select, label, a, input")) return;
        const slot = event.target.closest(".slot");
        if (!slot) return;
        drag = { slot, x: event.clientX, y: event.clientY, moving: false, pointer: event.pointerId };
    });

    document.addEventListener("pointermove", (event) => {
        if (!drag || event.pointerId !== drag.pointer) return;
        const dx = event.clientX - drag.x;
        const dy = event.clientY - drag.y;
        if (!drag.moving && Math.hypot(dx, dy) < 8) return;
        drag.moving = true;
        drag.slot.classList.add("dragging");
        drag.slot.style.translate = dx + "px " + dy + "px";
    });

    document.addEventListener("pointerup", async (event) => {
        if (!drag || event.pointerId !== drag.pointer) return;
        const { slot, moving } = drag;
        drag = null;
        slot.classList.remove("dragging");
        slot.style.translate = "";
        if (!moving) return;
        slot.hidden = true;
        const below = document.elementFromPoint(event.clientX, event.clientY);
        slot.hidden = false;
        const target = below && below.closest(".slot");
        if (!target || target === slot || !grid.contains(target)) return;
        const box = target.getBoundingClientRect();
        const after = event.clientX > box.left + box.width / 2;
        let before = after ? target.nextElementSibling : target;
        if (before === slot) before = slot.nextElementSibling;
        const result = await post("/api/slots/" + encodeURIComponent(slot.dataset.slot) + "/move",
            { before: before && before.dataset.slot ? before.dataset.slot : null });
        if (!result.ok) say(result.error);
    });

    document.addEventListener("pointercancel", () => {
        if (!drag) return;
        drag.slot.classList.remove("dragging");
        drag.slot.style.translate = "";
        drag = null;
    });

    // ---- Edit mode ----------------------------------------------------------------------------------------------

    const editToggle = document.getElementById("edit-toggle");
    editToggle.addEventListener("click", () => {
        const editing = document.body.classList.toggle("editing");
        editToggle.setAttribute("aria-pressed", String(editing));
        editToggle.textContent = editing ? "Done" : "Edit";
    });

    // ---- Gallery ------------------------------------------------------------------------------------------------

    const gallery = document.getElementById("gallery");
    const galleryBody = gallery.querySelector(".sheet-body");

    // Previews are loaded two at a time: each asks a provider for a snapshot.
    function schedulePreviewLoads(root) {
        const pending = Array.from(root.querySelectorAll("[data-preview]"));
        const next = async () => {
            const cell = pending.shift();
            if (!cell) return;
            const html = await fragment(cell.dataset.preview);
            cell.replaceChildren(nodes(html));
            cell.removeAttribute("aria-busy");
            cell.removeAttribute("data-preview");
            await next();
        };
        next();
        next();
    }

    document.getElementById("open-gallery").addEventListener("click", async () => {
        galleryBody.replaceChildren(nodes('<p class="loading">Loading widgets…</p>'));
        gallery.showModal();
        galleryBody.replaceChildren(nodes(await fragment("/fragments/gallery")));
        schedulePreviewLoads(galleryBody);
        startTicking();
    });

    gallery.addEventListener("click", async (event) => {
        if (event.target.closest("[data-close]")) {
            gallery.close();
            return;
        }
        const add = event.target.closest("button[data-add-kind]");
        if (!add) return;
        const item = add.closest(".kind");
        add.disabled = true;
        const result = await post("/api/widgets", { kind: add.dataset.addKind, family: add.dataset.addFamily });
        add.disabled = false;
        if (result.ok) {
            gallery.close();
            say("Added " + result.data.id + ".");
        } else {
            showError(item, result.error);
        }
    });

    // ---- Configuration ------------------------------------------------------------------------------------------

    const configure = document.getElementById("configure");
    const configureBody = configure.querySelector(".sheet-body");

    function localInputValue(utc) {
        const date = new Date(utc);
        if (Number.isNaN(date.getTime())) return "";
        return date.getFullYear() + "-" + pad(date.getMonth() + 1) + "-" + pad(date.getDate()) + "T" +
            pad(date.getHours()) + ":" + pad(date.getMinutes()) + ":" + pad(date.getSeconds());
    }

    async function openConfigure(widget) {
        configureBody.replaceChildren(nodes('<p class="loading">Loading…</p>'));
        if (!configure.open) configure.showModal();
        configureBody.replaceChildren(nodes(await fragment("/fragments/configure/" + encodeURIComponent(widget))));
        configureBody.querySelectorAll("input[data-utc]").forEach((input) => {
            input.value = localInputValue(input.dataset.utc);
        });
    }

    let searchTimer = null;

    async function search(field, text) {
        const form = field.closest("form");
        const list = field.querySelector(".options");
        list.setAttribute("aria-busy", "true");
        const query = "kind=" + encodeURIComponent(form.dataset.kind) + "&parameter=" +
            encodeURIComponent(field.dataset.param) + "&search=" + encodeURIComponent(text);
        list.replaceChildren(nodes(await fragment("/fragments/options?" + query)));
        list.removeAttribute("aria-busy");
    }

    configure.addEventListener("input", (event) => {
        const input = event.target.closest(".option-search");
        if (!input) return;
        const field = input.closest(".field");
        clearTimeout(searchTimer);
        searchTimer = setTimeout(() => search(field, input.value), 200);
    });

    configure.addEventListener("focusin", (event) => {
        const input = event.target.closest(".option-search");
        if (!input) return;
        const field = input.closest(".field");
        if (field.querySelector(".options").childElementCount === 0) search(field, input.value);
    });

    configure.addEventListener("click", (event) => {
        if (event.target.closest("[data-close]")) {
            configure.close();
            return;
        }
        const option = event.target.closest(".options button[data-value]");
        if (!option) return;
        const field = option.closest(".field");
        const input = field.querySelector("[name]");
        input.value = option.dataset.value;
        field.querySelectorAll(".options button").forEach((button) => {
            button.setAttribute("aria-selected", String(button === option));
        });
    });

    function value(input, type) {
        if (type === "boolean") return input.checked;
        const text = input.value.trim();
        if (text === "") return undefined;
        if (type === "integer") return Number.isInteger(Number(text)) ? Number(text) : text;
        if (type === "decimal") return Number.isFinite(Number(text)) ? Number(text) : text;
        if (type === "date") {
            const date = new Date(text);
            return Number.isNaN(date.getTime()) ? text : date.toISOString().replace(/\.\d{3}Z$/, "Z");
        }
        return text;
    }

    configure.addEventListener("submit", async (event) => {
        event.preventDefault();
        const form = event.target;
        form.querySelectorAll(".error").forEach((element) => {
            element.hidden = true;
            element.textContent = "";
        });
        const parameters = {};
        form.querySelectorAll(".field").forEach((field) => {
            const input = field.querySelector("[name]");
            const given = value(input, field.dataset.type);
            if (given !== undefined) parameters[field.dataset.param] = given;
        });
        const submit = form.querySelector("[type=submit]");
        submit.disabled = true;
        const result = await post("/api/widgets/" + encodeURIComponent(form.dataset.widget) + "/configure",
            { parameters });
        submit.disabled = false;
        if (result.ok) {
            configure.close();
            say("Saved. " + result.data.decision);
            return;
        }
        const field = result.field && form.querySelector('.field[data-param="' + CSS.escape(result.field) + '"]');
        const target = field ? field.querySelector(".field-error") : form.querySelector(".form-error");
        target.textContent = result.error;
        target.hidden = false;
    });

    // ---- Start --------------------------------------------------------------------------------------------------

    document.querySelectorAll(".slot").forEach(restoreFlip);
    startTicking();
    connect();
})();

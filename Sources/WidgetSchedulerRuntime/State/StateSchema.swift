import GRDB

/// The versioned schema of `state.sqlite`. Migrations are only ever appended; a shipped migration never changes.
///
/// Dates are stored as REAL seconds since 2001-01-01 UTC (`Date.timeIntervalSinceReferenceDate`, Foundation's own
/// representation), so they round-trip bit for bit and decode without parsing. In the sqlite3 shell,
/// `datetime(at + 978307200, 'unixepoch')` shows one.
enum StateSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE widget (
                        id TEXT PRIMARY KEY NOT NULL,
                        kind TEXT NOT NULL,
                        family TEXT NOT NULL,
                        configuration TEXT NOT NULL,
                        addedAt REAL NOT NULL
                    );
                    CREATE INDEX widget_kind ON widget(kind);
                    CREATE TABLE widget_schedule (
                        widgetID TEXT PRIMARY KEY NOT NULL REFERENCES widget(id) ON DELETE CASCADE,
                        state BLOB NOT NULL,
                        nextDue REAL,
                        quarantined INTEGER NOT NULL DEFAULT 0
                    ) WITHOUT ROWID;
                    CREATE INDEX widget_schedule_nextDue ON widget_schedule(nextDue);
                    CREATE TABLE timeline (
                        widgetID TEXT PRIMARY KEY NOT NULL REFERENCES widget(id) ON DELETE CASCADE,
                        timeline TEXT NOT NULL,
                        receivedAt REAL NOT NULL,
                        currentEntryIndex INTEGER
                    );
                    CREATE TABLE history (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        widgetID TEXT NOT NULL REFERENCES widget(id) ON DELETE CASCADE,
                        at REAL NOT NULL,
                        monotonic REAL NOT NULL,
                        event TEXT NOT NULL CHECK (event IN ('run', 'decision')),
                        reason TEXT NOT NULL,
                        outcome TEXT NOT NULL,
                        because TEXT,
                        detail TEXT
                    );
                    CREATE INDEX history_widget ON history(widgetID, id);
                    CREATE INDEX history_at ON history(at);
                    CREATE TABLE group_data (
                        "group" TEXT NOT NULL,
                        key TEXT NOT NULL,
                        value TEXT NOT NULL,
                        updatedAt REAL NOT NULL,
                        PRIMARY KEY ("group", key)
                    ) WITHOUT ROWID;
                    CREATE TABLE meta (
                        key TEXT PRIMARY KEY NOT NULL,
                        value TEXT NOT NULL
                    ) WITHOUT ROWID;
                    """)
        }
        // The outline (entry dates, relevances, policy in the compact encoding) is what the daemon reads at start;
        // rows written before it have NULL and are read from their JSON until their next run rewrites them.
        migrator.registerMigration("v2-timeline-outline") { db in
            try db.execute(sql: "ALTER TABLE timeline ADD COLUMN outline BLOB")
        }
        // A run line folded with the like runs before it (a provider looping in developer mode) stands for them
        // all; every line written before this stands for one run.
        migrator.registerMigration("v3-history-runs") { db in
            try db.execute(sql: "ALTER TABLE history ADD COLUMN runs INTEGER NOT NULL DEFAULT 1 CHECK (runs >= 1)")
        }
        // The images each widget's stored entries (its timeline, its current entry) refer to, by hash: the start-up
        // sweep keeps exactly these files of the image store, without reading every timeline.
        migrator.registerMigration("v4-image-references") { db in
            try db.execute(sql: """
                CREATE TABLE image_reference (
                    widgetID TEXT NOT NULL REFERENCES widget(id) ON DELETE CASCADE,
                    sha256 TEXT NOT NULL,
                    PRIMARY KEY (widgetID, sha256)
                ) WITHOUT ROWID;
                CREATE INDEX image_reference_sha256 ON image_reference(sha256);
                """)
        }
        return migrator
    }
}

import GRDB

/// The catalog's SQL schema as numbered migrations, applied in order and never undone.
///
/// A catalog file carries its own marks in the SQLite header: `application_id` says it is
/// Atelier's (so a stranger's database is refused, not altered) and `user_version` is the
/// number of migrations applied. Migrating happens inside one immediate (write-locked)
/// transaction that reads the version first, so two processes opening a new catalog at once
/// apply each migration exactly once: the second waits, then finds the work done.
package enum CatalogSchema {
    /// "ATLR" in the database header.
    static let applicationID: Int32 = 0x4154_4C52

    /// The number of migrations this build knows; a catalog with more is refused.
    package static var latestVersion: Int { migrations.count }

    /// Brings the schema up to date. Call inside an immediate transaction.
    static func migrate(_ db: Database, path: String) throws {
        var version = try currentVersion(db, path: path)
        guard version <= latestVersion else { throw CatalogError.newerSchema(path: path, version: String(version)) }
        if version == 0 { try db.execute(sql: "PRAGMA application_id = \(applicationID)") }
        while version < latestVersion {
            try db.execute(sql: migrations[version])
            version += 1
            try db.execute(sql: "PRAGMA user_version = \(version)")
        }
    }

    /// Checks that a catalog opened read-only is complete and not from a newer Atelier.
    static func checkCurrent(_ db: Database, path: String) throws {
        let version = try currentVersion(db, path: path)
        if version > latestVersion { throw CatalogError.newerSchema(path: path, version: String(version)) }
        if version < latestVersion {
            throw CatalogError.notACatalog(path: path, reason: version == 0 ? "it is empty; import something first" : "its schema is older; run atl-import once to upgrade it")
        }
    }

    /// The number of migrations applied: 0 for an empty database, and an error for a database
    /// that is not Atelier's.
    private static func currentVersion(_ db: Database, path: String) throws -> Int {
        let application = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        if application == applicationID { return try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
        let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
        guard application == 0 && tables == 0 else {
            throw CatalogError.notACatalog(path: path, reason: "it is an SQLite database without Atelier's tables")
        }
        return 0
    }

    /// Migration N+1 takes a catalog at version N to N+1.
    static let migrations: [String] = [
        // 1: garments, outfits, the wear log, laundry, images and models.
        """
        CREATE TABLE garments (
            id TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL,
            category TEXT NOT NULL,
            subcategory TEXT,
            brand TEXT,
            color TEXT,
            color_name TEXT,
            seasons TEXT,
            style TEXT,
            state TEXT NOT NULL DEFAULT 'available',
            composition TEXT,
            care TEXT,
            price_amount REAL,
            price_currency TEXT,
            purchased_on TEXT,
            wear_count INTEGER NOT NULL DEFAULT 0,
            last_worn_on TEXT,
            last_washed_on TEXT,
            images TEXT,
            model_id TEXT,
            tags TEXT,
            notes TEXT,
            extra TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        );
        CREATE INDEX garments_category ON garments(category, subcategory);
        CREATE INDEX garments_brand ON garments(brand);
        CREATE INDEX garments_state ON garments(state);
        CREATE INDEX garments_last_worn_on ON garments(last_worn_on);
        CREATE INDEX garments_wear_count ON garments(wear_count);

        CREATE TABLE outfits (
            id TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL,
            seasons TEXT,
            occasions TEXT,
            favorite INTEGER NOT NULL DEFAULT 0,
            notes TEXT,
            wear_count INTEGER NOT NULL DEFAULT 0,
            last_worn_on TEXT,
            extra TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        );
        CREATE TABLE outfit_garments (
            outfit_id TEXT NOT NULL REFERENCES outfits(id) ON DELETE CASCADE,
            garment_id TEXT NOT NULL REFERENCES garments(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            PRIMARY KEY (outfit_id, garment_id)
        ) WITHOUT ROWID;
        CREATE INDEX outfit_garments_garment ON outfit_garments(garment_id);

        -- The wear log: one row per garment per day, one per outfit per day. A garment worn
        -- as part of an outfit has both ids; the outfit's own row has no garment.
        CREATE TABLE wear_log (
            id INTEGER PRIMARY KEY,
            garment_id TEXT REFERENCES garments(id) ON DELETE CASCADE,
            outfit_id TEXT REFERENCES outfits(id) ON DELETE CASCADE,
            date TEXT NOT NULL,
            extra TEXT,
            CHECK (garment_id IS NOT NULL OR outfit_id IS NOT NULL)
        );
        CREATE UNIQUE INDEX wear_log_garment_day ON wear_log(garment_id, date) WHERE garment_id IS NOT NULL;
        CREATE UNIQUE INDEX wear_log_outfit_day ON wear_log(outfit_id, date) WHERE garment_id IS NULL;
        CREATE INDEX wear_log_date ON wear_log(date);

        CREATE TABLE laundry (
            id TEXT PRIMARY KEY NOT NULL,
            bin TEXT NOT NULL,
            program TEXT,
            temperature INTEGER,
            garments TEXT,
            symbols TEXT,
            warnings TEXT,
            status TEXT NOT NULL DEFAULT 'planned',
            planned_on TEXT,
            started_at TEXT,
            finished_at TEXT,
            notes TEXT,
            extra TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        );

        CREATE TABLE images (
            id TEXT PRIMARY KEY NOT NULL,
            path TEXT,
            width INTEGER,
            height INTEGER,
            bytes INTEGER,
            format TEXT,
            taken_at TEXT,
            orientation INTEGER,
            phash TEXT,
            dhash TEXT,
            thumbnail TEXT,
            garment_id TEXT REFERENCES garments(id) ON DELETE SET NULL,
            extra TEXT,
            created_at TEXT NOT NULL
        );
        CREATE INDEX images_garment ON images(garment_id);

        CREATE TABLE models (
            id TEXT PRIMARY KEY NOT NULL,
            garment_id TEXT REFERENCES garments(id) ON DELETE SET NULL,
            dir TEXT,
            files TEXT,
            detail TEXT,
            images INTEGER,
            registered INTEGER,
            points INTEGER,
            vertices INTEGER,
            faces INTEGER,
            metrics TEXT,
            extra TEXT,
            created_at TEXT NOT NULL
        );
        CREATE INDEX models_garment ON models(garment_id);
        """,
        // 2: category and subcategory indexed apart: `category=top` then reads rows in creation
        //    order straight from the index, with no sort, and `subcategory=…` gets an index too.
        """
        DROP INDEX garments_category;
        CREATE INDEX garments_category ON garments(category);
        CREATE INDEX garments_subcategory ON garments(subcategory);
        """,
        // 3: laundry. A garment's wears since its last wash, counted from the wear log as the
        //    wear log will keep it from now on (a wear on a day after the last wash counts);
        //    a load's garments' states from before it took them, for a cancelled load.
        """
        ALTER TABLE garments ADD COLUMN wears_since_wash INTEGER NOT NULL DEFAULT 0;
        UPDATE garments SET wears_since_wash = (
            SELECT count(*) FROM wear_log w
            WHERE w.garment_id = garments.id AND w.date > coalesce(garments.last_washed_on, ''));
        ALTER TABLE laundry ADD COLUMN prior_states TEXT;
        CREATE INDEX laundry_status ON laundry(status);
        """,
        // 4: an outfit's tags become a field of their own (they were kept among its unknown
        //    fields, where a list of them is moved from).
        """
        ALTER TABLE outfits ADD COLUMN tags TEXT;
        UPDATE outfits SET tags = json_extract(extra, '$.tags'),
            extra = CASE json_remove(extra, '$.tags') WHEN '{}' THEN NULL ELSE json_remove(extra, '$.tags') END
        WHERE json_type(extra, '$.tags') = 'array';
        """,
        // 5: the pHashes of windows of each photo (`phashWindows`), so crops of it are found;
        //    a stream that carried them before kept them among the unknown fields.
        """
        ALTER TABLE images ADD COLUMN phash_windows TEXT;
        UPDATE images SET phash_windows = json_extract(extra, '$.phashWindows'),
            extra = CASE json_remove(extra, '$.phashWindows') WHEN '{}' THEN NULL ELSE json_remove(extra, '$.phashWindows') END
        WHERE json_type(extra, '$.phashWindows') = 'text';
        """,
    ]
}

import GRDB

/// The catalog's SQL schema, as versioned migrations: a catalog made by any earlier version
/// is brought up to date when opened for writing, and never downgraded.
enum CatalogSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
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
                """)
        }
        return migrator
    }

    /// The newest migration this build knows; a catalog with a later one is refused.
    static let latestVersion = "v1"
}

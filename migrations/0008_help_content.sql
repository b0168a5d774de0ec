-- Help center full-text search: an FTS5 index over help_articles (external content, so the text is
-- stored once), kept in step by triggers; ranked with bm25() at query time. Articles and videos
-- themselves are seeded below.
CREATE VIRTUAL TABLE `help_articles_fts` USING fts5(
	title, summary, body, tags,
	content='help_articles', content_rowid='rowid',
	tokenize='porter unicode61'
);
--> statement-breakpoint
CREATE TRIGGER `help_articles_fts_ai` AFTER INSERT ON `help_articles` BEGIN
	INSERT INTO help_articles_fts(rowid, title, summary, body, tags) VALUES (new.rowid, new.title, new.summary, new.body, new.tags);
END;
--> statement-breakpoint
CREATE TRIGGER `help_articles_fts_ad` AFTER DELETE ON `help_articles` BEGIN
	INSERT INTO help_articles_fts(help_articles_fts, rowid, title, summary, body, tags) VALUES ('delete', old.rowid, old.title, old.summary, old.body, old.tags);
END;
--> statement-breakpoint
CREATE TRIGGER `help_articles_fts_au` AFTER UPDATE ON `help_articles` BEGIN
	INSERT INTO help_articles_fts(help_articles_fts, rowid, title, summary, body, tags) VALUES ('delete', old.rowid, old.title, old.summary, old.body, old.tags);
	INSERT INTO help_articles_fts(rowid, title, summary, body, tags) VALUES (new.rowid, new.title, new.summary, new.body, new.tags);
END;

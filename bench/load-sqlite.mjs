// Loads generated SQL files straight into the local D1's SQLite file, with the server stopped:
// `node bench/load-sqlite.mjs <database file> <sql file>...` (Node 22: node:sqlite). Each file is one
// transaction; the schema's triggers run as they do under D1, and foreign keys are checked as D1 checks
// them. `wrangler d1 execute --local --file` does the same through workerd's storage and grows slower
// with the table (random ids, a dozen indexes per row): on a 650,000-row database a 50,000-row file
// took 58 s there (17 s of CPU) and 14 s here (8.5 s). Prints one line per file.
import { readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';

const [dbFile, ...files] = process.argv.slice(2);
if (!dbFile || !files.length) {
  console.error('usage: node bench/load-sqlite.mjs <database file> <sql file>...');
  process.exit(2);
}
const db = new DatabaseSync(dbFile, { enableForeignKeyConstraints: true });
// A page cache as large as the data's working set (in KiB when negative), and no fsync per commit:
// benchmark data that a crash would simply seed again.
db.exec('PRAGMA cache_size = -1048576');
db.exec('PRAGMA synchronous = OFF');
for (const file of files) {
  const sql = readFileSync(file, 'utf8');
  db.exec('BEGIN');
  try {
    db.exec(sql);
    db.exec('COMMIT');
  } catch (err) {
    db.exec('ROLLBACK');
    console.error(`${file}: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  console.log(`loaded ${file}`);
}
// Fold the write-ahead log into the file, so workerd opens a database with nothing to replay.
db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
db.close();

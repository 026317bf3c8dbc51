//! A PostgreSQL database of its own for each test, on the server that
//! `MENAGERIE_TEST_POSTGRES` names (`.ci/postgres` starts one).
//!
//! Without that variable a test that needs PostgreSQL is skipped, unless
//! `MENAGERIE_REQUIRE_POSTGRES=1` (as in CI), which makes it a failure.

use postgres::{Client, NoTls};

/// The variable naming the test server: `postgres://user@host:port/db`.
pub const URL_VARIABLE: &str = "MENAGERIE_TEST_POSTGRES";
/// The variable that makes a missing test server a failure.
pub const REQUIRE_VARIABLE: &str = "MENAGERIE_REQUIRE_POSTGRES";

/// A database created for one test and dropped (with its connections)
/// when this value is.
pub struct TestDatabase {
    admin_url: String,
    name: String,
    url: String,
}

impl TestDatabase {
    /// A fresh, empty database, or `None` (after saying so on stderr) when
    /// no test server is configured and none is required.
    /// May be called from async tests (the work runs on a thread of its own).
    pub fn create(test: &str) -> Option<TestDatabase> {
        off_runtime(|| TestDatabase::create_here(test))
    }

    fn create_here(test: &str) -> Option<TestDatabase> {
        let admin_url = match std::env::var(URL_VARIABLE) {
            Ok(url) if !url.is_empty() => url,
            _ => {
                if std::env::var(REQUIRE_VARIABLE).is_ok_and(|v| v == "1") {
                    panic!("{REQUIRE_VARIABLE}=1 but {URL_VARIABLE} is not set (see .ci/postgres)");
                }
                eprintln!("{test}: skipped, {URL_VARIABLE} is not set (see .ci/postgres)");
                return None;
            }
        };
        let name = format!("menagerie_test_{}", random_suffix());
        let mut admin = Client::connect(&admin_url, NoTls)
            .unwrap_or_else(|e| panic!("{URL_VARIABLE}={admin_url} cannot be reached: {e}"));
        admin.batch_execute(&format!("CREATE DATABASE {name}")).expect("the test database is created");
        let url = with_database(&admin_url, &name);
        Some(TestDatabase { admin_url, name, url })
    }

    /// The URL of this test's database.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        off_runtime(|| {
            if let Ok(mut admin) = Client::connect(&self.admin_url, NoTls) {
                let _ = admin.batch_execute(&format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name));
            }
        })
    }
}

/// Runs `work` outside any async runtime (the synchronous client blocks on
/// a runtime of its own, which tokio forbids inside one).
fn off_runtime<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| match scope.spawn(work).join() {
        Ok(value) => value,
        Err(panic) => std::panic::resume_unwind(panic),
    })
}

fn random_suffix() -> String {
    use rand::Rng;
    let mut rng = rand::rng();
    (0..12).map(|_| char::from(b'a' + rng.random_range(0..26u8))).collect()
}

/// `url` with its database (the path) replaced by `name`.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map(|i| i + 3).unwrap_or(0);
    let host_end = base[scheme_end..].find('/').map(|i| scheme_end + i).unwrap_or(base.len());
    let mut out = format!("{}/{name}", &base[..host_end]);
    if let Some(query) = query {
        out.push('?');
        out.push_str(query);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn the_database_of_a_url_is_replaced() {
        assert_eq!(with_database("postgres://u@h:5/menagerie", "t1"), "postgres://u@h:5/t1");
        assert_eq!(with_database("postgres://u:p@h/db?sslmode=disable", "t1"), "postgres://u:p@h/t1?sslmode=disable");
        assert_eq!(with_database("postgres://u@h:5", "t1"), "postgres://u@h:5/t1");
    }
}

//! The pages in a real headless Chromium, driven through WebDriver
//! (chromedriver): one test program for every page, each page's tests in a
//! module of its own. One program, not one a page: each program links the
//! whole server, and sixteen of them took about seven minutes of every clean
//! test build. Each test starts its own chromedriver and Chromium, so the
//! tests run side by side as before (`cargo test` runs as many at once as
//! the machine has cores).
//!
//! Skipped when Chromium or chromedriver is missing, unless
//! MENAGERIE_REQUIRE_BROWSER=1 (as in CI), which makes that a failure.
//! Screenshots go to target/screenshots/.

#[path = "../common/mod.rs"]
mod common;

mod abandonment;
mod accounts;
mod analysis;
mod challenges;
mod delivery;
mod every_variant;
mod learn;
mod lobby;
mod nodes;
mod notifications;
mod page;
mod ratings;
mod records;
mod review;
mod takebacks;
mod tournaments;

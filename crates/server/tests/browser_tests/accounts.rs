//! Accounts in a real headless Chromium (docs/api.md, "Accounts"): a
//! browser plays a game anonymously, signs up on the account page (the
//! game becomes the account's and is listed there), the header and the
//! lobby show its username, the game page names it; it logs out and logs
//! in again with the form, and a wrong password is shown as the error.
//! Screenshots of the account page logged out and logged in go to
//! target/screenshots/account-{out,in}-{desktop,phone}.png, and with a
//! new API token to account-token-{desktop,phone}.png.
//!
//! Skipped when Chromium or chromedriver is missing, unless
//! MENAGERIE_REQUIRE_BROWSER=1 (as in CI), which makes that a failure.

use crate::common::browser::*;
use crate::common::TestServer;
use fantoccini::Client;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_signs_up_logs_out_and_logs_in_in_the_browser() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (_driver, client) = start_browser(&dir.path().join("profile"), TALL_WITH_SCROLLBARS).await;
    set_viewport(&client, 1280, 800).await;

    // An anonymous game first, made from the page's own origin.
    client.goto(&format!("{}/", server.base)).await.unwrap();
    home_page_drawn(&client, ".variants").await;
    let started = eval_async(
        &client,
        "const done = arguments[0];
         fetch('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' },
                               body: JSON.stringify({ variant: 'nim', opponent: 'friend' }) })
           .then((r) => r.json()).then(done);",
    )
    .await;
    let game = started["id"].as_str().unwrap().to_owned();

    client.goto(&format!("{}/account", server.base)).await.unwrap();
    until(&client, "the sign-up form", "return document.querySelector('[data-form=signup]')").await;
    assert_eq!(eval(&client, "return document.querySelector('[data-account-link]').textContent").await, "Log in");
    shots_at_both_sizes(&client, "account-out").await;
    fill(&client, "[data-form=signup] input[name=username]", "Ada_L").await;
    fill(&client, "[data-form=signup] input[name=password]", "correct horse").await;
    click(&client, "[data-form=signup] button[type=submit]").await;
    until(&client, "the account", "return document.querySelector('h2[data-username=Ada_L]')").await;
    until(
        &client,
        "the header's username",
        "return document.querySelector('[data-account-link][data-username=Ada_L]')",
    )
    .await;
    let listed =
        until(&client, "the games in progress", "return document.querySelector('[data-account-games] a')").await;
    assert!(listed.is_object(), "{listed}");
    let href = eval(&client, "return document.querySelector('[data-account-games] a').getAttribute('href')").await;
    assert_eq!(href, format!("/g/{game}"), "the anonymous game is the account's");
    shots_at_both_sizes(&client, "account-in").await;

    // The game page, opened without the seat link, names the player.
    client.goto(&format!("{}/g/{game}", server.base)).await.unwrap();
    let names = until(
        &client,
        "the player's name",
        "const names = [...document.querySelectorAll('.player-name')].map((e) => e.textContent).join(' | ');
         return names.includes('Ada_L (you)') && names",
    )
    .await;
    assert!(names.as_str().unwrap().contains("Ada_L (you)"), "{names}");
    // The lobby shows the username instead of the name form.
    client.goto(&format!("{}/", server.base)).await.unwrap();
    until(&client, "the lobby's username", "return document.querySelector('[data-lobby-username=Ada_L]')").await;

    // Log out, then a wrong password, then the right one.
    client.goto(&format!("{}/account", server.base)).await.unwrap();
    until(&client, "the account", "return document.querySelector('[data-action=logout]')").await;
    click(&client, "[data-action=logout]").await;
    until(&client, "the home page", "return location.pathname === '/' && document.querySelector('.variants')").await;
    client.goto(&format!("{}/account", server.base)).await.unwrap();
    until(&client, "the log-in form", "return document.querySelector('[data-form=login]')").await;
    fill(&client, "[data-form=login] input[name=username]", "ada_l").await;
    fill(&client, "[data-form=login] input[name=password]", "wrong password").await;
    click(&client, "[data-form=login] button[type=submit]").await;
    let error = until(
        &client,
        "the error",
        "const e = document.querySelector('[data-account-error=login]'); return !e.hidden && e.textContent",
    )
    .await;
    assert_eq!(error, "wrong username or password");
    fill(&client, "[data-form=login] input[name=password]", "correct horse").await;
    click(&client, "[data-form=login] button[type=submit]").await;
    until(&client, "the account", "return document.querySelector('h2[data-username=Ada_L]')").await;
    client.close().await.unwrap();
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_api_token_is_made_shown_once_and_revoked_on_the_account_page() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (_driver, client) = start_browser(&dir.path().join("profile"), TALL_WITH_SCROLLBARS).await;
    set_viewport(&client, 1280, 800).await;
    client.goto(&format!("{}/account", server.base)).await.unwrap();
    until(&client, "the sign-up form", "return document.querySelector('[data-form=signup]')").await;
    fill(&client, "[data-form=signup] input[name=username]", "robot").await;
    fill(&client, "[data-form=signup] input[name=password]", "correct horse").await;
    click(&client, "[data-form=signup] button[type=submit]").await;
    until(&client, "the token form", "return document.querySelector('[data-form=token]')").await;
    fill(&client, "[data-form=token] input[name=token-description]", "my bot").await;
    click(&client, "[data-form=token] input[value='bot:play']").await;
    click(&client, "[data-form=token] button[type=submit]").await;
    let token = until(
        &client,
        "the new token",
        "const p = document.querySelector('[data-new-token]'); return !p.hidden && p.querySelector('code').textContent",
    )
    .await;
    let token = token.as_str().unwrap().to_owned();
    assert!(token.starts_with("mnp_"), "{token}");
    let listed = eval(&client, "return document.querySelector('[data-api-tokens] li').textContent").await;
    assert!(listed.as_str().unwrap().contains("bot:play") && !listed.as_str().unwrap().contains(&token), "{listed}");
    shots_at_both_sizes(&client, "account-token").await;
    let account = |token: &str| {
        let client = reqwest::Client::new();
        let url = format!("{}/api/account", server.base);
        let token = token.to_owned();
        async move { client.get(url).bearer_auth(token).send().await.unwrap().status().as_u16() }
    };
    assert_eq!(account(&token).await, 200, "the token authenticates the API");
    // Shown once: a reload lists it without the token.
    client.refresh().await.unwrap();
    until(&client, "the list", "return document.querySelector('[data-api-tokens] li [data-action=revoke-token]')")
        .await;
    let page = eval(&client, "return document.body.textContent").await;
    assert!(!page.as_str().unwrap().contains(&token));
    click(&client, "[data-api-tokens] [data-action=revoke-token]").await;
    until(&client, "the revoked token gone", "return !document.querySelector('[data-api-tokens] li')").await;
    assert_eq!(account(&token).await, 401, "revoked");
    client.close().await.unwrap();
    server.stop().await;
}

/// Gives the browser a virtual authenticator (WebDriver's WebAuthn
/// extension, which chromedriver implements over the DevTools protocol):
/// a platform authenticator that holds discoverable credentials and
/// verifies its user without asking.
async fn add_virtual_authenticator(driver: &Driver, client: &Client) {
    let session = client.session_id().await.unwrap().expect("a session");
    let answer = reqwest::Client::new()
        .post(format!("{}/session/{session}/webauthn/authenticator", driver.1))
        .json(&serde_json::json!({
            "protocol": "ctap2",
            "transport": "internal",
            "hasResidentKey": true,
            "hasUserVerification": true,
            "isUserVerified": true,
        }))
        .send()
        .await
        .unwrap();
    assert!(answer.status().is_success(), "{}", answer.text().await.unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_passkey_registered_on_the_account_page_logs_in_without_a_password() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    // A relying party needs a host name: localhost, not 127.0.0.1.
    let base = server.base.replace("127.0.0.1", "localhost");
    let (driver, client) = start_browser(&dir.path().join("profile"), TALL_WITH_SCROLLBARS).await;
    set_viewport(&client, 1280, 800).await;
    add_virtual_authenticator(&driver, &client).await;
    client.goto(&format!("{base}/account")).await.unwrap();
    until(&client, "the sign-up form", "return document.querySelector('[data-form=signup]')").await;
    fill(&client, "[data-form=signup] input[name=username]", "Grace").await;
    fill(&client, "[data-form=signup] input[name=password]", "a long password").await;
    click(&client, "[data-form=signup] button[type=submit]").await;
    until(&client, "the account", "return document.querySelector('[data-action=add-passkey]')").await;
    click(&client, "[data-action=add-passkey]").await;
    let status = until(
        &client,
        "the passkey",
        "const s = document.querySelector('[data-passkey-status]'); return s.textContent && s.textContent",
    )
    .await;
    assert_eq!(status, "Passkey added (1 in all).");
    shots_at_both_sizes(&client, "account-passkey").await;

    // Logged out, the passkey logs in: no username, no password. Never
    // locked: strangers' failures lock the name out of password logins,
    // and this browser forgets that the account trusts it.
    click(&client, "[data-action=logout]").await;
    until(&client, "the home page", "return location.pathname === '/' && document.querySelector('.variants')").await;
    client.delete_cookie("menagerie_device").await.unwrap();
    let stranger = reqwest::Client::new();
    let login = |password: &'static str| {
        let request = stranger
            .post(format!("{}/api/login", server.base))
            .json(&serde_json::json!({ "username": "Grace", "password": password }));
        async move { request.send().await.unwrap().status().as_u16() }
    };
    for _ in 0..10 {
        assert_eq!(login("a wrong password").await, 401);
    }
    assert_eq!(login("a long password").await, 429, "strangers are locked out of the name");
    client.goto(&format!("{base}/account")).await.unwrap();
    until(&client, "the log-in form", "return document.querySelector('[data-action=passkey-login]')").await;
    click(&client, "[data-action=passkey-login]").await;
    until(&client, "the account", "return document.querySelector('h2[data-username=Grace]')").await;
    client.close().await.unwrap();
    server.stop().await;
}

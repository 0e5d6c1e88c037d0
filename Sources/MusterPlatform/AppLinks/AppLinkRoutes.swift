package import Hummingbird
package import MusterRuntime

/// The domain's association files, and the page a link answers in a browser without its app:
/// `GET /.well-known/apple-app-site-association` (universal links), `GET /.well-known/assetlinks.json`
/// (Android app links), `GET /<app>/link/{screen}/{id}` for each app that declares links (the
/// `screen` and `id` of its notifications' deep links).
package enum AppLinkRoutes {
    package static func add(to routes: Routes<Router<MusterRequestContext>>, apps: AppDirectory, settings: AppLinkSettings) {
        // Apple's CDN and Android's verifier fetch these once in a while: an hour's caching is plenty.
        let cache: HTTPFields = [.cacheControl: "public, max-age=3600"]
        let apple = AppLinks.apple(apps, settings), android = AppLinks.android(apps, settings)
        routes.get("/.well-known/apple-app-site-association", access: .anyone) { _, _ in
            try JSONResponse.make(.ok, apple, headers: cache)
        }
        routes.get("/.well-known/assetlinks.json", access: .anyone) { _, _ in
            try JSONResponse.make(.ok, android, headers: cache)
        }
        for app in AppLinks.linked(apps) {
            let installable = settings.iOS[app.name] != nil || settings.android[app.name] != nil
            routes.get("/\(app.name)/link/{screen}/{id}", access: .anyone) { _, _ in
                HTMLResponse.page(page(app: app.name, installable: installable), standalone: true)
            }
        }
    }

    /// What a link says in a browser: it opens in the app, where the app is installed.
    static func page(app: String, installable: Bool) -> String {
        var page = HTMLPage(title: "Open in the app")
        page.raw("<main><h1>This link opens in the app</h1><p>")
        page.text(installable
            ? "Open it on the phone where \(app) is installed, and the app shows what it points to."
            : "It points to something in \(app), which this server has no installed app for yet.")
        page.raw("</p></main>")
        return page.finish()
    }
}

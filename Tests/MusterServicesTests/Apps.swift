import MusterRuntime
import MusterServices

/// What these tests compose: every app, as `muster serve` does.
let apps = MusterProcess.apps

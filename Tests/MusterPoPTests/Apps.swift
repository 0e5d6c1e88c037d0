import MusterAppTesting
import MusterPlatform
import MusterPoP
import MusterRuntime

/// What these tests compose: PoP on the platform, beside an OFFLEASH (another app's people are strangers here).
let apps = MusterApps([PlatformApp(), PoPApp(), ClientApp(name: "offleash", roles: ["customer"])])

import MusterAppTesting
import MusterOFFLEASH
import MusterPlatform
import MusterRuntime

/// What these tests compose: the platform and OFFLEASH, beside a field app (another app's
/// organisations and tokens are unknown here).
let apps = MusterApps([PlatformApp(), OFFLEASHApp(), ClientApp(name: "field", roles: ["worker", "manager"])])

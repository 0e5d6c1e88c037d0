import MusterAppTesting
import MusterNotifications
import MusterOFFLEASH
import MusterPlatform
import MusterPush
import MusterRuntime

/// What these tests compose: the platform and OFFLEASH with the pushes and notifications it sends,
/// beside a field app (another app's organisations and tokens are unknown here).
let apps = MusterApps([PlatformApp(), OFFLEASHApp(), PushApp(), NotificationsApp(), ClientApp(name: "field", roles: ["worker", "manager"])])

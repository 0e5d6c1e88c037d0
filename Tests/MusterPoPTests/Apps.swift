import MusterAppTesting
import MusterNotifications
import MusterPlatform
import MusterPoP
import MusterPush
import MusterRuntime

/// What these tests compose: PoP on the platform with the pushes and notifications its calendar
/// sends, beside an OFFLEASH (another app's people are strangers here).
let apps = MusterApps([PlatformApp(), PoPApp(), PushApp(), NotificationsApp(), ClientApp(name: "offleash", roles: ["customer"])])

import MusterField
import MusterPlatform
import MusterPush
import MusterRuntime

/// What these tests compose: the field app on the platform (people, keys), with the notifier's
/// events (urgent changes become push requests).
let apps = MusterApps([PlatformApp(), PushApp(), FieldApp()])

import MusterOFFLEASH
import MusterPlatform
import MusterRuntime

/// What these tests compose: the platform and OFFLEASH.
let apps = MusterApps([PlatformApp(), OFFLEASHApp()])

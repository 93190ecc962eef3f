terraform import keel_cloud_account.production 5a0c2d4e-8f1b-4c3a-9e7d-6b2a1f0c3d84

"""Lists, as JSON, what the customer's account in LocalStack (and the FSx emulator) still holds for the Keel
instances whose ids are given: the acceptance tests' own count, through the AWS APIs, not the control plane's.
A deleted instance's data bucket tagged byoc:retain-until is kept on purpose until then, not left over."""
import json
import os
import sys

import boto3

aws = dict(endpoint_url=os.environ["KEEL_AWS_ENDPOINT"], region_name="us-east-1",
           aws_access_key_id="test", aws_secret_access_key="test")
ec2, s3, iam = boto3.client("ec2", **aws), boto3.client("s3", **aws), boto3.client("iam", **aws)
fsx = boto3.client("fsx", **{**aws, "endpoint_url": os.environ["KEEL_FSX_ENDPOINT"]})

def kept(bucket):
    try:
        tags = s3.get_bucket_tagging(Bucket=bucket)["TagSet"]
    except s3.exceptions.ClientError:
        return False
    return bucket.endswith("-data") and any(t["Key"] == "byoc:retain-until" for t in tags)


found = []
for instance_id in sys.argv[1:]:
    tagged = [{"Name": "tag:byoc:instance-id", "Values": [instance_id]}]
    for reservation in ec2.describe_instances(Filters=tagged)["Reservations"]:
        found += [f"ec2 instance {i['InstanceId']}" for i in reservation["Instances"]
                  if i["State"]["Name"] not in ("terminated", "shutting-down")]
    found += [f"volume {v['VolumeId']}" for v in ec2.describe_volumes(Filters=tagged)["Volumes"]]
    found += [f"security group {g['GroupId']}" for g in ec2.describe_security_groups(Filters=tagged)["SecurityGroups"]]
    found += [f"launch template {t['LaunchTemplateId']}"
              for t in ec2.describe_launch_templates(Filters=tagged)["LaunchTemplates"]]
    found += [f"bucket {b['Name']}" for b in s3.list_buckets()["Buckets"]
              if instance_id in b["Name"] and not kept(b["Name"])]
    found += [f"role {r['RoleName']}" for r in iam.list_roles()["Roles"] if instance_id in r["RoleName"]]
    found += [f"instance profile {p['InstanceProfileName']}" for p in iam.list_instance_profiles()["InstanceProfiles"]
              if instance_id in p["InstanceProfileName"]]
    found += [f"file system {f['FileSystemId']}" for f in fsx.describe_file_systems()["FileSystems"]
              if {"Key": "byoc:instance-id", "Value": instance_id} in f.get("Tags", [])]
print(json.dumps(found))

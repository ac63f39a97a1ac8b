# Signs the requests described on stdin with botocore's own S3 SigV4 signer and prints the
# headers it added, so that the tests compare our signer with the reference one.
import datetime
import json
import sys

import botocore.auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

answers = []
for case in json.load(sys.stdin):
    when = datetime.datetime.fromtimestamp(case["time"], datetime.timezone.utc).replace(tzinfo=None)
    botocore.auth.get_current_datetime = lambda: when
    request = AWSRequest(method=case["method"], url=case["url"], data=bytes(case["body"]), headers=case["headers"])
    credentials = Credentials(case["key"], case["secret"], case.get("token"))
    botocore.auth.S3SigV4Auth(credentials, "s3", case["region"]).add_auth(request)
    answers.append({name.lower(): value for name, value in request.headers.items()})
print(json.dumps(answers))
